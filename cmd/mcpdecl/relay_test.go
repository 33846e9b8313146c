package main

import (
	"io"
	"net"
	"sync"
	"testing"
)

// relay forwards loopback TCP connections to a real server (PostgreSQL,
// Redis) until cut, so a test can make that server unreachable to a
// process that already connected to it.
type relay struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
	done   sync.WaitGroup
}

func startRelay(t *testing.T, target string) *relay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &relay{ln: ln, target: target}
	r.done.Add(1)
	go r.accept()
	t.Cleanup(r.cut)
	return r
}

func (r *relay) addr() string { return r.ln.Addr().String() }

func (r *relay) accept() {
	defer r.done.Done()
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", r.target)
		if err != nil {
			c.Close()
			continue
		}
		r.mu.Lock()
		r.conns = append(r.conns, c, s)
		r.mu.Unlock()
		go func() { io.Copy(s, c); s.Close() }()
		go func() { io.Copy(c, s); c.Close() }()
	}
}

// cut closes the port and every connection through it: the server is
// unreachable from then on (a connection refused).
func (r *relay) cut() {
	r.ln.Close()
	r.done.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.conns {
		c.Close()
	}
	r.conns = nil
}
