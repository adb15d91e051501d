package fleettest

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy is a TCP proxy a test controls between a terminal and a NATS server: Block cuts
// every connection and refuses new ones (a partition: the server out of reach), Heal lets
// them through again.
type Proxy struct {
	l      net.Listener
	target string
	mu     sync.Mutex
	block  bool
	conns  []net.Conn
}

// NewProxy listens on a loopback port and forwards each connection to target (HOST:PORT)
// until the test ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{l: l, target: target}
	go p.serve()
	t.Cleanup(func() { l.Close(); p.Block() })
	return p
}

// URL is the proxy's address as a NATS URL.
func (p *Proxy) URL() string { return "nats://" + p.l.Addr().String() }

func (p *Proxy) serve() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.block {
			p.mu.Unlock()
			c.Close()
			continue
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go func() { io.Copy(s, c); s.Close() }()
		go func() { io.Copy(c, s); c.Close() }()
	}
}

// Block cuts every open connection and refuses new ones.
func (p *Proxy) Block() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.block = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// Heal lets new connections through again.
func (p *Proxy) Heal() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.block = false
}
