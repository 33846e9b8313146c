package mcp

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// GuardHosts applies the MCP endpoint's Host and Origin rule (see
// HTTPOptions.Loopback, AllowedHosts and AllowedOrigins) to every request
// of next, answering 403 to the others. Wrap the whole listener with it:
// a DNS-rebinding page reaches every path of a loopback server, not only
// the MCP endpoint, and /metrics or a health check tells it as much about
// the server as /mcp would. log (nil: none) gets a line per refusal.
func GuardHosts(next http.Handler, opts *HTTPOptions, log *slog.Logger) http.Handler {
	var o HTTPOptions
	if opts != nil {
		o = *opts
	}
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	rule := newHostRule(&o, log)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !rule.hostOK(r) || !rule.originOK(r) {
			refuse(w, r, http.StatusForbidden, Errorf(CodeInvalidRequest, "forbidden: Host or Origin not allowed"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostRule is the Host and Origin policy of a listener.
type hostRule struct {
	hosts    []allowedHost
	loopback bool     // HTTPOptions.Loopback
	origins  []string // HTTPOptions.AllowedOrigins
	log      *slog.Logger
}

func newHostRule(o *HTTPOptions, log *slog.Logger) hostRule {
	return hostRule{hosts: parseAllowedHosts(o.AllowedHosts), loopback: o.Loopback, origins: o.AllowedOrigins, log: log}
}

// allowedHost is one AllowedHosts entry: a name, with a port when the entry
// names one.
type allowedHost struct {
	name string // lower case, IPv6 without brackets
	port string // "" allows any port
}

func parseAllowedHosts(list []string) []allowedHost {
	out := make([]allowedHost, 0, len(list))
	for _, a := range list {
		name, port := splitHost(strings.TrimSpace(a))
		if name != "" {
			out = append(out, allowedHost{name: strings.ToLower(name), port: port})
		}
	}
	return out
}

// splitHost splits "name", "name:port", "[::1]" and "[::1]:port".
func splitHost(hostport string) (name, port string) {
	if !strings.Contains(hostport, ":") { // no port: skip SplitHostPort's error value
		return strings.Trim(hostport, "[]"), ""
	}
	if n, p, err := net.SplitHostPort(hostport); err == nil {
		return n, p
	}
	return strings.Trim(hostport, "[]"), ""
}

// hostOK is the DNS-rebinding check: the Host header must
// name this server. A rebinding page reaches the server under the
// attacker's own DNS name, so only names the server knows are its own pass:
// the loopback names on a loopback connection, the literal IP the
// connection arrived on (an IP cannot be rebound), and AllowedHosts.
func (h *hostRule) hostOK(r *http.Request) bool {
	if h.namesServer(r, r.Host) {
		return true
	}
	h.log.Warn("HTTP request refused: its Host is not a name of this server; allow a DNS name with --allowed-host",
		"host", r.Host)
	return false
}

// namesServer reports whether hostport (a Host header, or the host of an
// Origin) is a name of this server for this connection. A connection that
// is not TCP (a unix socket) passes: no browser can reach it.
func (h *hostRule) namesServer(r *http.Request, hostport string) bool {
	name, port := splitHost(hostport)
	for _, a := range h.hosts {
		if strings.EqualFold(a.name, name) && (a.port == "" || a.port == port) {
			return true
		}
	}
	local, hasLocal := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	tcp, isTCP := local.(*net.TCPAddr)
	switch {
	case hasLocal && !isTCP:
		return true
	case h.loopback || !hasLocal || tcp.IP.IsLoopback():
		return isLoopbackName(name)
	}
	ip, ok := parseIP(name)
	arrived, _ := netip.AddrFromSlice(tcp.IP)
	return ok && ip == arrived.Unmap()
}

func isLoopbackName(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, ok := parseIP(host)
	return ok && ip.IsLoopback()
}

// parseIP reads a literal IP as net.ParseIP does (no zone; an IPv4-mapped
// IPv6 address is its IPv4 address) without allocating, since every
// request's Host is read with it.
func parseIP(s string) (netip.Addr, bool) {
	ip, err := netip.ParseAddr(s)
	if err != nil || ip.Zone() != "" {
		return netip.Addr{}, false
	}
	return ip.Unmap(), true
}

// originOK accepts no Origin (non-browser clients), listed origins,
// same-host origins (the Host itself passed hostOK) and origins whose host
// is a name of this server, such as loopback origins on loopback.
func (h *hostRule) originOK(r *http.Request) bool {
	o := first(r.Header, "Origin")
	if o == "" {
		return true
	}
	for _, a := range h.origins {
		if a == o {
			return true
		}
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	return h.namesServer(r, u.Host)
}
