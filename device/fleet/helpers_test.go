package fleet_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// testFleet is an operator's fleet for a test: registry, seeds, nodes, stores, service.
type testFleet struct {
	dir    string
	reg    *server.Registry
	seeds  map[string]string // terminal id -> seed file ("" key: operator)
	nodes  []*server.Server
	urls   []string
	op     *nats.Conn
	js     jetstream.JetStream
	stores *server.Stores
	ca     string   // CA file the operator's connections trust (TLS tests)
	stop   []func() // stop each node's claim service
}

// newRegistry registers terminals T000..T(n-1) plus the extra ids, each with a seed file.
func newRegistry(t testing.TB, n int, extra ...string) *testFleet {
	t.Helper()
	f := &testFleet{dir: t.TempDir(), seeds: map[string]string{}}
	reg, err := server.InitData(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	f.seeds[""] = filepath.Join(f.dir, server.OperatorSeedFile)
	ids := extra
	for i := range n {
		ids = append(ids, fmt.Sprintf("T%03d", i))
	}
	for i, id := range ids {
		path := filepath.Join(f.dir, id+".nk")
		kp, err := server.NewSeedFile(path)
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := kp.PublicKey()
		reg.Terminals = append(reg.Terminals, server.Terminal{ID: id, Retailer: uint32(100 + i%10), NKey: pub})
		f.seeds[id] = path
	}
	f.reg = reg
	return f
}

func freePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// start starts n nodes (1: single node; 3: a cluster), the stores and one service per node.
func (f *testFleet) start(t testing.TB, n int, mod func(*server.Options)) {
	t.Helper()
	var routes []string
	if n > 1 {
		for range n {
			routes = append(routes, freePort(t))
		}
	}
	for i := range n {
		o := server.Options{DataDir: filepath.Join(f.dir, fmt.Sprintf("node%d", i)), Listen: "127.0.0.1:0", Registry: f.reg,
			Name: fmt.Sprintf("n%d", i)}
		if n > 1 {
			o.Cluster, o.ClusterListen, o.Routes = "fleet-test", routes[i], routes
		}
		if mod != nil {
			mod(&o)
		}
		s, err := server.Start(o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Shutdown)
		f.nodes = append(f.nodes, s)
		f.urls = append(f.urls, s.URL())
	}
	f.op = f.operator(t, f.urls)
	f.js, _ = jetstream.New(f.op)
	var err error
	for deadline := time.Now().Add(30 * time.Second); ; {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		f.stores, err = server.EnsureStores(ctx, f.js, min(n, 3))
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("stores: %v", err)
		}
		time.Sleep(200 * time.Millisecond) // the cluster elects its meta leader
	}
	for i := range n {
		nc := f.operator(t, append([]string{f.urls[i]}, f.urls...))
		svc := server.NewService(nc, f.stores, server.ServiceOptions{Registry: f.reg})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); svc.Run(ctx) }()
		stop := sync.OnceFunc(func() { cancel(); <-done })
		f.stop = append(f.stop, stop)
		t.Cleanup(stop)
	}
}

func (f *testFleet) operator(t testing.TB, urls []string) *nats.Conn {
	t.Helper()
	opt, err := nats.NkeyOptionFromSeed(f.seeds[""])
	if err != nil {
		t.Fatal(err)
	}
	opts := []nats.Option{opt, nats.MaxReconnects(-1), nats.ReconnectWait(100 * time.Millisecond), nats.DontRandomize()}
	if f.ca != "" {
		opts = append(opts, nats.RootCAs(f.ca))
	}
	nc, err := nats.Connect(joinURLs(urls), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

func joinURLs(urls []string) string {
	s := ""
	for i, u := range urls {
		if i > 0 {
			s += ","
		}
		s += u
	}
	return s
}

// terminal is a simulated terminal: a real journal and a fleet client.
type terminal struct {
	id string
	j  *journal.Journal
	c  *fleet.Client
}

func (f *testFleet) terminal(t testing.TB, id, url string, mod func(*fleet.Options)) *terminal {
	t.Helper()
	dir := t.TempDir()
	j, err := journal.Open(dir, journal.Options{Terminal: id})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	o := fleet.Options{Terminal: id, URL: url, Credentials: f.seeds[id], Journal: j, StateDir: dir, Timeout: 2 * time.Second}
	if mod != nil {
		mod(&o)
	}
	c, err := fleet.Connect(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return &terminal{id: id, j: j, c: c}
}

// waitOnline waits for the client's connection.
func waitOnline(t testing.TB, c *fleet.Client) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !c.Online(); {
		if time.Now().After(deadline) {
			t.Fatal("client never connected")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// ticketN is the n-th winning ticket of the tests, in block 7.
func ticketN(n int) codes.TicketID {
	return codes.TicketID{Block: 7, Pack: uint32(n / 8), Position: uint8(n%8 + 1)}
}

// secretOf is the tests' "true" secret of a ticket (what the block's seed would give).
func secretOf(id codes.TicketID) [codes.SecretSize]byte {
	var s [codes.SecretSize]byte
	s[0], s[1], s[2], s[9] = byte(id.Pack), byte(id.Pack>>8), id.Position, 0xa5
	return s
}

func payout(id codes.TicketID, amount int64, unconfirmed bool) journal.Entry {
	e := journal.Entry{Kind: journal.KindPayout, Ticket: id, Game: int(id.Position), Amount: amount,
		Code: codes.ValidationCodeOf(id, secretOf(id)).String()}
	if unconfirmed {
		e.Reason = journal.ReasonUnconfirmed
	}
	return e
}

// wantViolations waits up to within for n permission violations reported on perm (the
// connection's error handler) and fails on any other error or on fewer.
func wantViolations(t *testing.T, perm <-chan error, n int, within time.Duration) {
	t.Helper()
	deadline := time.After(within)
	for got := 0; got < n; got++ {
		select {
		case err := <-perm:
			if !errors.Is(err, nats.ErrPermissionViolation) {
				t.Fatalf("want a permissions violation, got %v", err)
			}
		case <-deadline:
			t.Fatalf("%d permission violations, want %d", got, n)
		}
	}
}
