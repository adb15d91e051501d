package fleet_test

import (
	"cmp"
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
	"github.com/packterm/pos/device/fleet/fleettest"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
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

	// The operator's block 7 ledger (built by start unless set; packs: default 400) and
	// each retailer's status list (start publishes "every pack delivered" unless noStatus).
	block    *fleettest.Block
	packs    uint32
	noStatus bool
	svc      func(*server.ServiceOptions) // adjusts each node's service (default: no rate limit to speak of)
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
	f.startNodes(t, n, mod)
	f.startServices(t, n)
}

// startNodes starts n nodes (1: single node; 3: a cluster) and connects the operator.
func (f *testFleet) startNodes(t testing.TB, n int, mod func(*server.Options)) {
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
}

// startServices makes the stores (retrying while the cluster elects its leader),
// publishes the status lists and runs one service per node.
func (f *testFleet) startServices(t testing.TB, n int) {
	t.Helper()
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
	if f.block == nil {
		f.block = fleettest.NewBlock(t, 7, cmp.Or(f.packs, 400), secretOf, tierOf)
	}
	if !f.noStatus {
		for _, r := range f.retailers() {
			f.publishStatus(t, f.block.Status(t, r, 1, f.block.Delivered()))
		}
	}
	for i := range n {
		nc := f.operator(t, append([]string{f.urls[i]}, f.urls...))
		so := f.serviceOptions(t)
		if f.svc != nil {
			f.svc(&so)
		}
		ready := make(chan struct{})
		so.Ready = ready
		svc := server.NewService(nc, f.stores, so)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			if err := svc.Run(ctx); err != nil {
				t.Error(err)
			}
		}()
		select { // the service answers before the test goes on
		case <-ready:
		case <-done:
		}
		stop := sync.OnceFunc(func() { cancel(); <-done })
		f.stop = append(f.stop, stop)
		t.Cleanup(stop)
	}
}

// serviceOptions are a claim service's options: the registry, the block's ledger and
// operator key, and limits far above what the tests claim (TestClaimFlood sets its own).
func (f *testFleet) serviceOptions(t testing.TB) server.ServiceOptions {
	return server.ServiceOptions{Registry: f.reg, Ledgers: f.block.Set(t), Trust: f.block.Trust, ClaimRate: 1e9, ClaimBurst: 1 << 30,
		RecordRate: 1e9, RecordBurst: 1 << 30}
}

// retailers are the registry's retailers.
func (f *testFleet) retailers() []uint32 {
	seen := map[uint32]bool{}
	var out []uint32
	for _, tm := range f.reg.Terminals {
		if !seen[tm.Retailer] {
			seen[tm.Retailer] = true
			out = append(out, tm.Retailer)
		}
	}
	return out
}

// publishStatus publishes a signed status list in the status bucket (retrying while a
// cluster elects the bucket's leader).
func (f *testFleet) publishStatus(t testing.TB, data []byte) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		_, err := server.PublishStatus(ctx, f.stores, data, f.block.Trust)
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("status list: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
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
	id  string
	j   *journal.Journal
	c   *fleet.Client
	dir string // the journal's and the client's state file's
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
	return &terminal{id: id, j: j, c: c, dir: dir}
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

// ticketN is the n-th winning ticket of the tests, in block 7 (positions 1 to 7: each
// wins its game's smallest prize, 1 € to 3 €).
func ticketN(n int) codes.TicketID {
	return codes.TicketID{Block: 7, Pack: uint32(n / 7), Position: uint8(n%7 + 1)}
}

// bigN is the n-th ticket winning 100 € (game 8's first prize: position 8, odd packs).
func bigN(n int) codes.TicketID { return codes.TicketID{Block: 7, Pack: uint32(2*n + 1), Position: 8} }

// loserN is the n-th losing ticket (position 8, even packs).
func loserN(n int) codes.TicketID { return codes.TicketID{Block: 7, Pack: uint32(2 * n), Position: 8} }

var reglement = game.Reglement()

// tierOf is the tests' block: ticketN, bigN and loserN above.
func tierOf(id codes.TicketID) uint8 {
	switch {
	case id.Position < 8:
		return uint8(len(reglement.Games[id.Position-1].Tiers))
	case id.Pack%2 == 1:
		return 1
	}
	return 0
}

// lotOf is a ticket's prize in cents.
func lotOf(id codes.TicketID) int64 {
	if k := tierOf(id); k > 0 {
		return int64(reglement.Games[id.Position-1].Tiers[k-1].Amount)
	}
	return 0
}

// codeOf is a ticket's true validation code.
func codeOf(id codes.TicketID) codes.ValidationCode { return codes.ValidationCodeOf(id, secretOf(id)) }

// secretOf is the tests' "true" secret of a ticket (what the block's seed would give).
func secretOf(id codes.TicketID) [codes.SecretSize]byte {
	var s [codes.SecretSize]byte
	s[0], s[1], s[2], s[9] = byte(id.Pack), byte(id.Pack>>8), id.Position, 0xa5
	return s
}

func payout(id codes.TicketID, amount int64, unconfirmed bool) journal.Entry {
	e := journal.Entry{Kind: journal.KindPayout, Ticket: id, Game: int(id.Position), Amount: amount,
		Code: codes.ValidationCodeOf(id, secretOf(id))}
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
