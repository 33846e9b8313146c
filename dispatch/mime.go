package dispatch

import (
	"strings"
	"unicode/utf8"
)

// isText reports whether content of this MIME type (or, without one, these
// bytes) is text.
func isText(mimeType string, b []byte) bool {
	if mimeType == "" {
		return utf8.Valid(b)
	}
	return strings.HasPrefix(mimeType, "text/") || strings.HasSuffix(mimeType, "json") ||
		strings.HasSuffix(mimeType, "xml") || strings.HasSuffix(mimeType, "yaml") || mimeType == "application/javascript"
}
