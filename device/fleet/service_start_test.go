package fleet_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/fleettest"
	"github.com/packterm/pos/device/fleet/server"
)

// TestServicesStartTogether: three claim services started at once against a 3-node
// cluster that has just started (no meta leader yet, no stream nor bucket) all come up,
// each creating the stores with 3 replicas; claims are then decided. Before SetupStores
// the services made one attempt and exited ("context deadline exceeded").
func TestServicesStartTogether(t *testing.T) {
	const services = 3
	f := newRegistry(t, 2)
	f.startNodes(t, 3, nil)
	f.block = fleettest.NewBlock(t, 7, 400, secretOf, tierOf)
	type up struct {
		st  *server.Stores
		err error
	}
	ups := make(chan up, services)
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); wg.Wait() })
	for i := range services {
		nc := f.operator(t, []string{f.urls[i]})
		wg.Add(1)
		go func() {
			defer wg.Done()
			js, _ := jetstream.New(nc)
			sctx, scancel := context.WithTimeout(ctx, 60*time.Second)
			st, err := server.SetupStores(sctx, js, server.SetupOptions{Replicas: 3, Attempt: 2 * time.Second})
			scancel()
			if err != nil {
				ups <- up{err: err}
				return
			}
			so := f.serviceOptions(t)
			ready := make(chan struct{})
			so.Ready = ready
			done := make(chan error, 1)
			go func() { done <- server.NewService(nc, st, so).Run(ctx) }()
			select {
			case <-ready:
				ups <- up{st: st}
			case err := <-done:
				ups <- up{err: err}
			}
			<-done
		}()
	}
	for i := range services {
		u := <-ups
		if u.err != nil {
			t.Fatalf("service %d of %d did not come up: %v", i+1, services, u.err)
		}
		f.stores = u.st
	}
	for _, r := range f.retailers() {
		f.publishStatus(t, f.block.Status(t, r, 1, f.block.Delivered()))
	}
	a, b := f.terminal(t, "T000", f.urls[0], nil), f.terminal(t, "T001", f.urls[2], nil)
	waitOnline(t, a.c)
	waitOnline(t, b.c)
	id := ticketN(3)
	if _, err := a.c.Claim(context.Background(), codeOf(id), lotOf(id)); err != nil {
		t.Fatalf("first claim: %v", err)
	}
	var taken *fleet.TakenError
	if _, err := b.c.Claim(context.Background(), codeOf(id), lotOf(id)); !errors.As(err, &taken) || taken.Holder.Terminal != "T000" {
		t.Fatalf("second claim: %v, want taken by T000", err)
	}
}

// TestSetupStoresRetries: SetupStores waits for a server that is not there yet (its
// attempts fail) and gives up with the last error when its context ends.
func TestSetupStoresGivesUp(t *testing.T) {
	f := newRegistry(t, 0)
	f.startNodes(t, 1, nil)
	js, _ := jetstream.New(f.op)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	// 5 replicas on a single node never succeed.
	_, err := server.SetupStores(ctx, js, server.SetupOptions{Replicas: 5, Attempt: 100 * time.Millisecond, First: 10 * time.Millisecond})
	if err == nil {
		t.Fatal("5 replicas on one node set up")
	}
	st, err := server.SetupStores(context.Background(), js, server.SetupOptions{Replicas: 1})
	if err != nil || st.Claims == nil {
		t.Fatalf("one replica: %v", err)
	}
	if _, err := server.SetupStores(context.Background(), js, server.SetupOptions{Replicas: 1}); err != nil {
		t.Fatalf("again (idempotent): %v", err)
	}
}

// registryFleet is a single node serving f's registry, its claim service, and a watcher
// of f.dir/terminals.json on a fake clock applying each new version to the service (and
// to the server's users when users is set).
func registryFleet(t *testing.T, f *testFleet, users bool) (*clockwork.FakeClock, *server.Service) {
	t.Helper()
	if err := server.SaveRegistry(f.dir, f.reg); err != nil {
		t.Fatal(err)
	}
	f.startNodes(t, 1, nil)
	f.block = fleettest.NewBlock(t, 7, 400, secretOf, tierOf)
	js, _ := jetstream.New(f.op)
	st, err := server.SetupStores(context.Background(), js, server.SetupOptions{Replicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	f.stores = st
	for _, r := range []uint32{100, 101, 102} {
		f.publishStatus(t, f.block.Status(t, r, 1, f.block.Delivered()))
	}
	so := f.serviceOptions(t)
	ready := make(chan struct{})
	so.Ready = ready
	svc := server.NewService(f.op, st, so)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	wg.Add(2)
	go func() { defer wg.Done(); svc.Run(ctx) }()
	<-ready
	clock := clockwork.NewFakeClock()
	apply := []func(*server.Registry) error{func(r *server.Registry) error { svc.SetRegistry(r); return nil }}
	if users {
		apply = append(apply, f.nodes[0].SetRegistry)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	go func() {
		defer wg.Done()
		server.WatchRegistry(ctx, f.dir, server.WatchOptions{Every: time.Second, Clock: clock, Logger: log, Apply: apply})
	}()
	return clock, svc
}

// tick lets the watcher look once more.
func tick(t *testing.T, clock *clockwork.FakeClock) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	if err := clock.BlockUntilContext(ctx, 1); err != nil { // the look is done
		t.Fatal(err)
	}
}

// register adds terminal id (retailer 101) to f's registry file and returns it.
func register(t *testing.T, f *testFleet, id string) {
	t.Helper()
	kp, err := server.NewSeedFile(filepath.Join(f.dir, id+".nk"))
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := kp.PublicKey()
	f.seeds[id] = filepath.Join(f.dir, id+".nk")
	f.reg.Terminals = append(f.reg.Terminals, server.Terminal{ID: id, Retailer: 101, NKey: pub})
	if err := server.SaveRegistry(f.dir, f.reg); err != nil {
		t.Fatal(err)
	}
}

// TestRegistryChangesWithoutRestart: a terminal added to terminals.json after the
// server and the service started connects and has its claims accepted; one removed
// has its connection closed and cannot connect again; a registry file that does not
// parse changes nothing. Before WatchRegistry the registry was read once at start: the
// new terminal could not connect until a restart.
func TestRegistryChangesWithoutRestart(t *testing.T) {
	f := newRegistry(t, 1)
	clock, _ := registryFleet(t, f, true)
	old := f.terminal(t, "T000", f.urls[0], nil)
	waitOnline(t, old.c)

	register(t, f, "NEW1")
	tick(t, clock)
	nt := f.terminal(t, "NEW1", f.urls[0], nil)
	waitOnline(t, nt.c)
	id := ticketN(5)
	c, err := nt.c.Claim(context.Background(), codeOf(id), lotOf(id))
	if err != nil || c.Terminal != "NEW1" {
		t.Fatalf("new terminal's claim: %v %+v", err, c)
	}

	// A broken file is refused and the registry in force kept.
	path := filepath.Join(f.dir, server.RegistryFile)
	good, _ := os.ReadFile(path)
	if err := os.WriteFile(path, good[:len(good)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	tick(t, clock)
	id = ticketN(6)
	if _, err := nt.c.Claim(context.Background(), codeOf(id), lotOf(id)); err != nil {
		t.Fatalf("claim after a broken registry file: %v", err)
	}

	// T000 removed: disconnected, and refused at reconnection.
	f.reg.Terminals = f.reg.Terminals[1:]
	if err := server.SaveRegistry(f.dir, f.reg); err != nil {
		t.Fatal(err)
	}
	tick(t, clock)
	for deadline := time.Now().Add(10 * time.Second); old.c.Online(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("removed terminal still connected")
		}
	}
	id = ticketN(7)
	if _, err := old.c.Claim(context.Background(), codeOf(id), lotOf(id)); !errors.Is(err, fleet.ErrOffline) {
		t.Fatalf("removed terminal's claim: %v, want offline", err)
	}
}

// TestRegistryRemovedRefusedByService: against a cluster whose nodes still let a
// removed terminal connect (their configuration not reloaded yet), the claim service
// refuses its claims as unregistered once terminals.json no longer lists it.
func TestRegistryRemovedRefusedByService(t *testing.T) {
	f := newRegistry(t, 2)
	clock, _ := registryFleet(t, f, false)
	tm := f.terminal(t, "T000", f.urls[0], nil)
	waitOnline(t, tm.c)
	id := ticketN(1)
	if _, err := tm.c.Claim(context.Background(), codeOf(id), lotOf(id)); err != nil {
		t.Fatal(err)
	}
	f.reg.Terminals = f.reg.Terminals[1:]
	if err := server.SaveRegistry(f.dir, f.reg); err != nil {
		t.Fatal(err)
	}
	tick(t, clock)
	id = ticketN(2)
	var ref *fleet.RefusedError
	if _, err := tm.c.Claim(context.Background(), codeOf(id), lotOf(id)); !errors.As(err, &ref) || ref.Reason != fleet.RefusedUnregistered {
		t.Fatalf("removed terminal's claim: %v, want refused %s", err, fleet.RefusedUnregistered)
	}
}

// TestSecondServerRefused: a second server on the same data directory is refused at
// once, with the directory named; the first one's lock released, it may start.
func TestSecondServerRefused(t *testing.T) {
	dir := t.TempDir()
	l1, err := server.LockData(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = server.LockData(dir)
	if !errors.Is(err, server.ErrDataInUse) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("second lock: %v, want ErrDataInUse naming %s", err, dir)
	}
	l1.Release()
	l2, err := server.LockData(dir)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	l2.Release()
}
