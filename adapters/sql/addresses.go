package sqladapter

import (
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// addressPattern matches what a database message may say about where it
// runs or who connects: an IPv4 or bracketed IPv6 address (with a port or
// without), and the host of a MySQL account ('user'@'10.0.0.5').
var addressPattern = lazyregexp.New(`'@'[^']*'|\[[0-9A-Fa-f:.]+\](:\d+)?|\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b`)

// withoutAddresses removes network addresses and account hosts from a
// message for the model; the server log keeps the full error.
func withoutAddresses(msg string) string {
	return addressPattern.ReplaceAllStringFunc(msg, func(m string) string {
		if m[0] == '\'' {
			return "'@(a host)"
		}
		return "(an address)"
	})
}
