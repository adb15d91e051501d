package fleet_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/codes"
)

// startLoadCluster writes the nodes' files with ClusterConfig (no TLS: the load is the
// claims, not 10,000 handshakes) and starts three nats-server processes.
// With profile set, each node also serves pprof on a port of its own (--profile).
func startLoadCluster(t *testing.T, dir string, reg *server.Registry, profile bool) *loadCluster {
	t.Helper()
	cp, rp, hp := freeBase(t, 3)
	cc := server.ClusterConfig{Nodes: 3, ClientPort: cp, ClusterPort: rp, HTTPPort: hp, StoreDir: filepath.Join(dir, "store")}
	confs, err := cc.Write(reg, filepath.Join(dir, "conf"))
	if err != nil {
		t.Fatal(err)
	}
	urls, _ := cc.ClientURLs()
	cl := &loadCluster{urls: strings.Split(urls, ","), procs: map[string]*exec.Cmd{}, prof: map[string]string{}, cpuSeen: map[string]time.Duration{}}
	cl.mon, _ = cc.MonitorURLs()
	start := time.Now()
	for i, conf := range confs {
		name := fmt.Sprintf("fleet-%d", i+1)
		args := []string{"-c", conf}
		if profile {
			addr := freePort(t)
			_, port, _ := net.SplitHostPort(addr)
			args = append(args, "--profile", port)
			cl.prof[name] = "http://" + addr + "/debug/pprof/profile"
		}
		cmd := natsServerCommand(t, []string{"nice", "-n", "10"}, args...)
		logf, _ := os.Create(filepath.Join(dir, fmt.Sprintf("node-%d.log", i+1)))
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cl.procs[name] = cmd
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); logf.Close() })
	}
	waitListening(t, cl.mon, dir)
	t.Logf("load: 3 nodes (%d accounts each) listening in %v; memory %s", len(reg.Terminals)+1, time.Since(start).Round(time.Millisecond), cl.rss())
	return cl
}

// clkTck is the kernel's USER_HZ, the unit of utime and stime in /proc/PID/stat
// (`getconf CLK_TCK`): 100 on the architectures this runs on.
const clkTck = 100

// cpuUse is CPU time (user+system) used so far by the cluster's nodes together and by
// this test process (the claim services and the light terminals).
type cpuUse struct{ nodes, self time.Duration }

func (u cpuUse) sub(v cpuUse) cpuUse { return cpuUse{u.nodes - v.nodes, u.self - v.self} }

// cpu reads each node's CPU time from /proc/PID/stat (a node killed but not yet reaped
// still shows its times; one gone counts what it was last seen using) and this process's
// from getrusage.
func (c *loadCluster) cpu() cpuUse {
	var u cpuUse
	for name, p := range c.procs {
		if d, err := procCPU(p.Process.Pid); err == nil {
			c.cpuSeen[name] = d
		}
		u.nodes += c.cpuSeen[name]
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		u.self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return u
}

// procCPU is process pid's utime+stime from /proc/PID/stat.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name, in parentheses, may hold spaces: the fields after it start at
	// field 3 (state); utime and stime are fields 14 and 15.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(ut+st) * time.Second / clkTck, nil
}

// perClaim is the CPU used over a stage divided by the claims decided in it, in ms:
// servers, test process, total; and the cores it kept busy over the stage's wall time.
func (u cpuUse) perClaim(decided int, wall time.Duration) string {
	if decided == 0 {
		return "no claim decided"
	}
	ms := func(d time.Duration) float64 { return d.Seconds() * 1000 / float64(decided) }
	return fmt.Sprintf("servers %.2f ms + test process %.2f ms = %.2f ms (%.2f cores over %v)",
		ms(u.nodes), ms(u.self), ms(u.nodes+u.self), (u.nodes+u.self).Seconds()/wall.Seconds(), wall.Round(100*time.Millisecond))
}

// profileStage, when dir is set, profiles this process (runtime/pprof) and every node
// serving pprof for d: dir/<name>-test.pprof and dir/<name>-fleet-N.pprof. The returned
// function stops and waits for the nodes' profiles.
func profileStage(t *testing.T, dir, name string, cl *loadCluster, d time.Duration) func() {
	if dir == "" {
		return func() {}
	}
	err := os.MkdirAll(dir, 0o755)
	var f *os.File
	if err == nil {
		f, err = os.Create(filepath.Join(dir, name+"-test.pprof"))
	}
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for node, url := range cl.prof {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := fetchProfile(fmt.Sprintf("%s?seconds=%d", url, int(d.Seconds())), filepath.Join(dir, name+"-"+node+".pprof")); err != nil {
				t.Logf("load: %s's profile: %v", node, err)
			}
		}()
	}
	return func() { pprof.StopCPUProfile(); f.Close(); wg.Wait() }
}

func fetchProfile(url, file string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", resp.Status, b)
	}
	return os.WriteFile(file, b, 0o644)
}

// roleLabels mark goroutines, and those they start (a connection's read loop, a
// service's workers), in this process's CPU profiles: go tool pprof -tagfocus
// role=service (the claim services) or role=terminal (the light terminals); what is left
// is the runtime's own (GC workers, the scheduler).
func roleLabels(role string) context.Context {
	return pprof.WithLabels(context.Background(), pprof.Labels("role", role))
}

// startLoadServices sets up the stores (3 replicas) and runs n claim services, service i
// connected to node i+1 first, and publishes every retailer's status list.
func startLoadServices(t *testing.T, f *testFleet, n int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	pprof.SetGoroutineLabels(roleLabels("service"))
	defer pprof.SetGoroutineLabels(context.Background())
	for i := range n {
		nc := f.operator(t, rotate(f.urls, i))
		js, _ := jetstream.New(nc)
		sctx, scancel := context.WithTimeout(ctx, 2*time.Minute)
		st, err := server.SetupStores(sctx, js, server.SetupOptions{Replicas: 3})
		scancel()
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			f.op, f.js, f.stores = nc, js, st
			for _, r := range f.retailers() {
				f.publishStatus(t, f.block.Status(t, r, 1, f.block.Delivered()))
			}
		}
		so := f.serviceOptions(t)
		so.Workers = 64
		so.Requests = f.operator(t, rotate(f.urls, i)) // as posctl fleet service: requests on their own connection
		ready := make(chan struct{})
		so.Ready = ready
		wg.Add(1)
		go func() { defer wg.Done(); server.NewService(nc, st, so).Run(ctx) }()
		<-ready
	}
}

// connectLight connects one light terminal per key, 64 at a time, each to the nodes in
// its own order.
func connectLight(t *testing.T, f *testFleet, kps []nkeys.KeyPair, urls []string) []*lightTerminal {
	t.Helper()
	terms := make([]*lightTerminal, len(kps))
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	start := time.Now()
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pprof.SetGoroutineLabels(roleLabels("terminal"))
			for {
				i := int(next.Add(1) - 1)
				if i >= len(kps) {
					return
				}
				kp := kps[i]
				pub, _ := kp.PublicKey()
				id := f.reg.Terminals[i].ID
				nc, err := nats.Connect(joinURLs(rotate(urls, i)), nats.Nkey(pub, kp.Sign), nats.CustomInboxPrefix(fleet.InboxPrefix+id),
					nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond), nats.RetryOnFailedConnect(false), nats.Timeout(20*time.Second))
				if err != nil {
					errs <- fmt.Errorf("%s: %w", id, err)
					return
				}
				terms[i] = &lightTerminal{id: id, nc: nc}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, l := range terms {
			l.nc.Close()
		}
	})
	t.Logf("load: %d connections in %v", len(terms), time.Since(start).Round(time.Millisecond))
	return terms
}

// runStage sends rate claims a second for d (open loop: each claim in its own goroutine,
// at most 4,000 in flight), each of a new winning ticket by the next terminal; a claim
// not answered in 2 s (as a terminal's client) is asked again until decided (at most
// 60 s). kill, if set, is called half way. won sees each ticket won.
func runStage(terms []*lightTerminal, rate int, d time.Duration, next *atomic.Int64, kill func() time.Time, won func(codes.TicketID, string)) stageResult {
	res := stageResult{rate: rate, errs: map[string]int{}}
	pprof.SetGoroutineLabels(roleLabels("terminal")) // the claims' goroutines
	defer pprof.SetGoroutineLabels(context.Background())
	var mu sync.Mutex
	var lat, pub []time.Duration
	var killedAt time.Time
	var after []time.Time // answers of claims written after the kill
	var decided atomic.Int64
	sem := make(chan struct{}, 4000)
	var wg sync.WaitGroup
	start := time.Now()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	killed := kill == nil
	for now := range tick.C {
		el := now.Sub(start)
		if el >= d {
			break
		}
		if !killed && el >= d/2 {
			killed = true
			mu.Lock()
			killedAt = kill()
			mu.Unlock()
		}
		// Paced by the clock, not by the ticks (a loaded machine drops ticks).
		for owed := int(float64(rate)*el.Seconds()) - res.sent - res.dropped; owed > 0; owed-- {
			select {
			case sem <- struct{}{}:
			default:
				res.dropped++ // saturated: 4,000 in flight, not sent
				continue
			}
			n := next.Add(1) - 1
			l := terms[int(n)%len(terms)]
			id := ticketN(int(n))
			res.sent++
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				sent := time.Now()
				r, err := l.claim(id, 2*time.Second)
				for deadline := time.Now().Add(60 * time.Second); (err != nil || r == fleet.ResultError) && time.Now().Before(deadline); {
					time.Sleep(100 * time.Millisecond)
					r, err = l.claim(id, 2*time.Second)
				}
				took := time.Since(sent)
				if time.Since(start) <= d {
					decided.Add(1)
				}
				var pt time.Duration
				if r == fleet.ResultWon || r == fleet.ResultYours {
					won(id, l.id)
					ps := time.Now()
					for try := 0; try < 30; try++ {
						if l.publish(id, 2*time.Second) == nil {
							break
						}
						time.Sleep(100 * time.Millisecond)
					}
					pt = time.Since(ps)
				}
				mu.Lock()
				defer mu.Unlock()
				if r != "" && r != fleet.ResultError {
					res.decided++
				}
				switch r {
				case fleet.ResultWon, fleet.ResultYours:
					res.won++
					lat, pub = append(lat, took), append(pub, pt)
				default:
					res.undecided++
				}
				if err != nil {
					res.errs[errKind(err)]++
				}
				if done := sent.Add(took); (r == fleet.ResultWon || r == fleet.ResultYours) && !killedAt.IsZero() && done.After(killedAt) {
					after = append(after, done)
				}
			}()
		}
	}
	wg.Wait()
	res.decidedPerSec = float64(decided.Load()) / d.Seconds()
	res.p50, res.p99, res.pubP50, res.pubP99 = pct(lat, .5), pct(lat, .99), pct(pub, .5), pct(pub, .99)
	// Failover: the longest time after the kill without a claim written (answered won).
	slices.SortFunc(after, func(a, b time.Time) int { return a.Compare(b) })
	prev := killedAt
	for _, at := range after {
		res.failover = max(res.failover, at.Sub(prev))
		prev = at
	}
	return res
}

// checkBucket: every ticket answered "won" (or "yours" on a retry) is in the claims
// bucket, held by its terminal: nothing acknowledged was lost (read key by key, 16 at a
// time, each read retried while the cluster settles).
func checkBucket(t *testing.T, f *testFleet, won map[codes.TicketID]string) {
	t.Helper()
	ids := make(chan codes.TicketID)
	var lost, unread atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range ids {
				var c fleet.Claim
				var err error
				for try := 0; try < 20; try++ {
					ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
					var e jetstream.KeyValueEntry
					if e, err = f.stores.Claims.Get(ctx, fleet.ClaimKey(id)); err == nil {
						c, err = fleet.DecodeClaim(e.Value())
					}
					cancel()
					if err == nil || errors.Is(err, jetstream.ErrKeyNotFound) {
						break
					}
					time.Sleep(250 * time.Millisecond)
				}
				switch {
				case errors.Is(err, jetstream.ErrKeyNotFound) || err == nil && c.Terminal != won[id]:
					lost.Add(1)
				case err != nil:
					unread.Add(1)
				}
			}
		}()
	}
	for id := range won {
		ids <- id
	}
	close(ids)
	wg.Wait()
	t.Logf("load: %d tickets won, %d lost, %d unreadable", len(won), lost.Load(), unread.Load())
	if lost.Load() > 0 || unread.Load() > 0 {
		t.Fatalf("%d acknowledged claims lost, %d unreadable", lost.Load(), unread.Load())
	}
}

// errKind is an undecided claim's last error, short.
func errKind(err error) string {
	s := err.Error()
	if len(s) > 40 {
		s = s[:40]
	}
	return s
}
