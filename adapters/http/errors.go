package httpadapter

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// errTooLarge is an answer over max_response_bytes.
type errTooLarge struct{ limit int64 }

func (e *errTooLarge) Error() string {
	return "the answer was larger than " + english.Count(int(e.limit), "byte")
}

// describeTransportError turns a failure to get an answer into a message
// for the model: what happened, and whether retrying may help. what names
// the other side ("The API", "The OAuth2 token endpoint"), host is its
// host[:port] and timeout the deadline the call had. Messages never hold a
// URL, a host, an address, a header or a credential: the host is for the
// server's log, in the CallError's Err.
func describeTransportError(err error, what, host string, timeout time.Duration) *adapter.CallError {
	ce := &adapter.CallError{Err: &transportError{host: host, err: err}}
	at := what
	of := lowerFirst(at) // "the API", inside a sentence
	var (
		tooLarge *errTooLarge
		redirect *redirectError
		dnsErr   *net.DNSError
		unknown  x509.UnknownAuthorityError
		hostErr  x509.HostnameError
		invalid  x509.CertificateInvalidError
		record   tls.RecordHeaderError
		certErr  *tls.CertificateVerificationError
		opErr    *net.OpError
	)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		ce.Message = fmt.Sprintf("%s gave no answer within %s. It may be overloaded or down; retrying later may help.", at, adapter.RoundLimit(timeout))
		ce.Retryable = true
	case errors.Is(err, context.Canceled):
		ce.Message = "The call was cancelled before " + lowerFirst(what) + " answered."
	case errors.As(err, &tooLarge):
		ce.Message = fmt.Sprintf("The answer of %s was larger than %s, the limit of this backend (max_response_bytes). Ask for less, for example with a filter or a smaller page size.", of, english.Count(int(tooLarge.limit), "byte"))
	case errors.As(err, &redirect) && redirect.tooMany:
		ce.Message = fmt.Sprintf("%s redirected more than %d times; the call was stopped. Retrying will not help.", at, MaxRedirects)
	case errors.As(err, &redirect):
		ce.Message = fmt.Sprintf("%s redirected to another host, which mcpdecl does not follow: redirects must stay on the backend's own scheme and host. Retrying will not help.", at)
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			ce.Message = fmt.Sprintf("The host name of %s could not be found (DNS: no such host). Check the backend's base_url; retrying will not help.", of)
		} else {
			ce.Message = fmt.Sprintf("The DNS lookup of %s's host failed (%s). Retrying later may help.", of, withoutAddresses(dnsErr.Err, host))
			ce.Retryable = true
		}
	case errors.As(err, &unknown) || errors.As(err, &certErr) && isUnknownAuthority(certErr.Err):
		ce.Message = fmt.Sprintf("The TLS certificate of %s is not trusted (it is signed by an unknown authority). If the API uses a private certificate authority, set tls { ca_file = \"...\" } in the backend. Retrying will not help.", of)
	case errors.As(err, &hostErr):
		ce.Message = fmt.Sprintf("The TLS certificate of %s does not match its host name. Check the backend's base_url; retrying will not help.", of)
	case errors.As(err, &invalid):
		ce.Message = fmt.Sprintf("The TLS certificate of %s is not valid (%s). Retrying will not help.", of, withoutAddresses(strings.TrimPrefix(invalid.Error(), "x509: "), host))
	case errors.As(err, &certErr):
		ce.Message = fmt.Sprintf("The TLS certificate of %s could not be verified (%s). Retrying will not help.", of, withoutAddresses(strings.TrimPrefix(certErr.Err.Error(), "x509: "), host))
	case errors.As(err, &record) || strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		ce.Message = fmt.Sprintf("%s did not answer with TLS. If it serves plain HTTP, its base_url should start with http://. Retrying will not help.", at)
	case isTLSAlert(err):
		ce.Message = fmt.Sprintf("%s refused the TLS connection (%s). It may require a client certificate (tls { cert_file, key_file }) or refuse the one given. Retrying will not help.", at, withoutAddresses(tlsAlert(err), host))
	case errors.Is(err, syscall.ECONNREFUSED):
		ce.Message = fmt.Sprintf("%s refused the connection; it may be down. Retrying later may help.", at)
		ce.Retryable = true
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.EPIPE):
		ce.Message = fmt.Sprintf("%s closed the connection before it answered in full. Retrying may help.", at)
		ce.Retryable = true
	case errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH):
		ce.Message = fmt.Sprintf("%s cannot be reached (no route to the host). Retrying later may help.", at)
		ce.Retryable = true
	case errors.As(err, &opErr) && opErr.Timeout():
		ce.Message = fmt.Sprintf("%s gave no answer in time. Retrying later may help.", at)
		ce.Retryable = true
	default:
		ce.Message = fmt.Sprintf("The call to %s failed: %s.", of, withoutAddresses(innerMessage(err), host))
		// A network failure of another kind may pass; anything else will not.
		inner, ne := err, net.Error(nil)
		if ue, ok := err.(*url.Error); ok {
			inner = ue.Err
		}
		ce.Retryable = errors.As(inner, &ne)
	}
	return ce
}

func isUnknownAuthority(err error) bool {
	var u x509.UnknownAuthorityError
	return errors.As(err, &u)
}

// isTLSAlert reports whether the other side ended the TLS connection with an
// alert, such as "certificate required".
func isTLSAlert(err error) bool {
	var ae tls.AlertError
	return errors.As(err, &ae) || strings.Contains(err.Error(), "remote error: tls: ")
}

func tlsAlert(err error) string {
	s := err.Error()
	if i := strings.Index(s, "remote error: tls: "); i >= 0 {
		return strings.TrimSpace(s[i+len("remote error: tls: "):])
	}
	return strings.TrimPrefix(s, "tls: ")
}

// innerMessage is the error without the method and URL that *url.Error
// adds, and without the addresses a *net.OpError adds ("dial tcp
// 10.0.0.1:443: connect: ..." is "connect: ...").
func innerMessage(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	msg := err.Error()
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Err != nil {
		msg = strings.Replace(msg, opErr.Error(), opErr.Err.Error(), 1)
	}
	return strings.TrimSuffix(msg, ".")
}

// addressPattern matches an IPv4 or bracketed IPv6 address, with a port
// or without.
var addressPattern = lazyregexp.New(`\[[0-9A-Fa-f:.]+\](:\d+)?|\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b`)

// withoutAddresses removes the backend's host and any network address
// from a message for the model.
func withoutAddresses(msg, host string) string {
	msg = addressPattern.ReplaceAllString(msg, "(an address)")
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	if name == "" || !strings.Contains(msg, name) {
		return msg
	}
	// The name as a whole word, with the port if there is one.
	word := lazyregexp.New(`\b` + regexp.QuoteMeta(name) + `(:\d+)?\b`)
	return word.ReplaceAllString(msg, "(the host)")
}

// transportError is a transport failure as the server log shows it: the
// host it concerns and the error without the URL, whose query may hold an
// API key.
type transportError struct {
	host string
	err  error
}

func (e *transportError) Error() string { return e.host + ": " + innerMessageKeepingAddresses(e.err) }
func (e *transportError) Unwrap() error { return e.err }

// innerMessageKeepingAddresses is the error without the URL *url.Error
// adds, for the log.
func innerMessageKeepingAddresses(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}
