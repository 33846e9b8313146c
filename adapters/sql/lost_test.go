package sqladapter

import (
	"errors"
	"io"
	"net"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// proxy forwards TCP connections to a database server until stopped, so a
// test can cut every connection at once, as a server that goes away does.
type proxy struct {
	target string
	ln     net.Listener
	mu     sync.Mutex
	conns  []net.Conn
	wg     sync.WaitGroup
}

func startProxy(t *testing.T, addr, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{target: target, ln: ln}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(p.stop)
	return p
}

func (p *proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go func() { io.Copy(s, c); s.Close() }()
		go func() { io.Copy(c, s); c.Close() }()
	}
}

// stop closes the listener and every forwarded connection.
func (p *proxy) stop() {
	p.ln.Close()
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

var mysqlAddr = regexp.MustCompile(`@tcp\(([^)]*)\)`)

// TestDatabaseGoneAndBack cuts every connection of an open backend and
// refuses new ones: a call reports a lost connection the model may retry,
// without the DSN. Once the database is reachable again, calls succeed.
func TestDatabaseGoneAndBack(t *testing.T) {
	for _, name := range []string{"postgres", "mariadb"} {
		t.Run(name, func(t *testing.T) {
			db := openTestDB(t, name)
			viaProxy, p := proxied(t, db)
			addr, target := p.ln.Addr().String(), p.target
			b, a := compileTestCall(t, viaProxy, "max_open_conns = 2", "SELECT 1 AS one WHERE 1 = ${args.n}", "", false)
			open(t, b)
			args := map[string]cty.Value{"n": cty.NumberIntVal(1)}
			if _, err := invoke(a, args); err != nil {
				t.Fatalf("first call: %v", err)
			}

			p.stop()
			_, err := invoke(a, args)
			var ce *adapter.CallError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v (%T), want a CallError", err, err)
			}
			if ce.Message != msgLost || !ce.Retryable {
				t.Errorf("CallError = %q, retryable %v; want %q, retryable", ce.Message, ce.Retryable, msgLost)
			}
			if strings.Contains(ce.Error(), addr) || strings.Contains(ce.Error(), viaProxy.dsn) {
				t.Errorf("the message names the address: %q", ce.Error())
			}

			startProxy(t, addr, target)
			res, err := invoke(a, args)
			if err != nil {
				t.Fatalf("call after the database came back: %v", err)
			}
			if got := res.Fields["rows"].([]map[string]any); len(got) != 1 {
				t.Errorf("rows = %v", got)
			}
		})
	}
}

// proxied returns db reached through a new proxy, and the proxy.
func proxied(t *testing.T, db *testDB) (*testDB, *proxy) {
	t.Helper()
	var target string
	var rewrite func(addr string) string
	switch db.name {
	case "postgres":
		u, err := url.Parse(db.dsn)
		if err != nil {
			t.Fatal(err)
		}
		target = u.Host
		rewrite = func(addr string) string { v := *u; v.Host = addr; return v.String() }
	case "mariadb":
		m := mysqlAddr.FindStringSubmatch(db.dsn)
		if m == nil {
			t.Skipf("%s does not name a tcp(host:port) address", envMySQL)
		}
		target = m[1]
		rewrite = func(addr string) string { return strings.Replace(db.dsn, m[0], "@tcp("+addr+")", 1) }
	}
	if !strings.Contains(target, ":") {
		t.Skipf("the DSN of %s names no port", db.name)
	}
	p := startProxy(t, "127.0.0.1:0", target)
	return &testDB{name: db.name, driver: db.driver, dsn: rewrite(p.ln.Addr().String()), admin: db.admin}, p
}
