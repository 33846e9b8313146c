package e2e

import (
	"bufio"
	"net"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestHostileHostVariants: names that look like the server's own but are
// not (a trailing dot, a loopback address inside another name, a zone, a
// suffix or prefix of the allowed name, numeric spellings that browsers
// would not send), and Origins built the same way, are refused; the
// server's names in other letter cases pass.
func TestHostileHostVariants(t *testing.T) {
	p := startServe(t, hostileConfig(t, t.TempDir(), 1), "--allowed-host", "mcp.test")
	_, port, _ := net.SplitHostPort(p.addr)
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for _, tc := range []struct {
		host, origin string
		status       int
	}{
		{"LOCALHOST:" + port, "", 200},
		{"MCP.Test:" + port, "http://mcp.TEST:" + port, 200},
		{"localhost.:" + port, "", 403},
		{"127.0.0.1.nip.io:" + port, "", 403},
		{"localhost.evil.example:" + port, "", 403},
		{"evilmcp.test:" + port, "", 403},
		{"mcp.test.evil.example:" + port, "", 403},
		{"[fe80::1%25eth0]:" + port, "", 403},
		{"127.1:" + port, "", 403},
		{"0x7f000001:" + port, "", 403},
		{"2130706433:" + port, "", 403},
		{"", "http://localhost.:" + port, 403},
		{"", "http://127.0.0.1.nip.io:" + port, 403},
		{"", "http://localhost@evil.example", 403},
		{"", "file://", 403},
		{"", "http://evilmcp.test", 403},
	} {
		var hdr []string
		if tc.host != "" {
			hdr = append(hdr, "Host", tc.host)
		}
		if tc.origin != "" {
			hdr = append(hdr, "Origin", tc.origin)
		}
		if res := post(t, p.addr, ping, hdr...); res.StatusCode != tc.status {
			t.Errorf("Host %q Origin %q: status %d, want %d", tc.host, tc.origin, res.StatusCode, tc.status)
		}
	}

	// HTTP/1.0 allows a request without Host: it names nothing, so it is
	// refused like a foreign name.
	conn, err := net.DialTimeout("tcp", p.addr, guard)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(guard))
	req := "POST /mcp HTTP/1.0\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: " +
		strconv.Itoa(len(ping)) + "\r\n\r\n" + ping
	if _, err := conn.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("HTTP/1.0 without Host: status %d, want 403", res.StatusCode)
	}
}
