package fleet_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
)

// floodObserver counts what the service dropped, by terminal.
type floodObserver struct {
	mu      sync.Mutex
	dropped map[string]int
	taken   map[string]int
	bLat    []time.Duration
}

func (o *floodObserver) ClaimDecided(term string, _ string, _ string, d time.Duration) {
	if term == "B" {
		o.mu.Lock()
		o.bLat = append(o.bLat, d)
		o.mu.Unlock()
	}
}
func (o *floodObserver) JournalRecord(string) {}
func (o *floodObserver) RequestTaken(terminal, _ string, _ time.Duration) {
	o.mu.Lock()
	o.taken[terminal]++
	o.mu.Unlock()
}

// seen is how many of terminal's requests the service took or dropped.
func (o *floodObserver) seen(terminal string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.taken[terminal] + o.dropped[terminal]
}
func (o *floodObserver) RequestDropped(terminal, _ string) {
	o.mu.Lock()
	o.dropped[terminal]++
	o.mu.Unlock()
}

func newFloodObserver() *floodObserver {
	return &floodObserver{dropped: map[string]int{}, taken: map[string]int{}}
}

// flood sends claims as terminal id on conns connections as fast as each allows, until
// stop is closed; it returns how many it sent. The answers go to a reply subject nobody
// reads (a flooder does not wait).
func flood(t testing.TB, f *testFleet, id string, conns int, stop <-chan struct{}) *atomic.Int64 {
	t.Helper()
	var sent atomic.Int64
	body, _ := json.Marshal(fleet.ClaimRequest{Ticket: ticketN(1), Code: codeOf(ticketN(1)).String(), Amount: lotOf(ticketN(1))})
	for range conns {
		opt, err := nats.NkeyOptionFromSeed(f.seeds[id])
		if err != nil {
			t.Fatal(err)
		}
		nc, err := nats.Connect(f.urls[0], opt, nats.CustomInboxPrefix(fleet.InboxPrefix+id), quiet())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		m := &nats.Msg{Subject: fleet.ClaimPrefix + id, Reply: fleet.InboxPrefix + id + ".flood", Data: body}
		go func() {
			for {
				for range 256 {
					if nc.PublishMsg(m) != nil {
						return
					}
				}
				sent.Add(256)
				select {
				case <-stop:
					return
				default:
				}
			}
		}()
	}
	return &sent
}

// timedClaims claims n new winners as terminal l, one after the other, and returns each
// claim's latency; a claim not answered within 2 s (a terminal's timeout) is an error.
func timedClaims(l *lightTerminal, from, n int) ([]time.Duration, error) {
	var lat []time.Duration
	for i := range n {
		id := ticketN(from + i)
		start := time.Now()
		res, err := l.claim(id, 2*time.Second)
		if err != nil {
			return lat, err
		}
		if res != fleet.ResultWon {
			return lat, fmt.Errorf("claim answered %q", res)
		}
		lat = append(lat, time.Since(start))
	}
	return lat, nil
}

// floodFleet is a fleet of nodes (one service each) with the default rate limits, A1 to
// flood and B to claim.
func floodFleet(t testing.TB, nodes int) (*testFleet, *floodObserver, *lightTerminal) {
	obs := newFloodObserver()
	f := newRegistry(t, 0, "A1", "B")
	f.packs = 4000
	f.svc = func(o *server.ServiceOptions) {
		o.ClaimRate, o.ClaimBurst, o.Observer = 0, 0, obs // the defaults: 2/s, 60 at once
		o.ClaimBurst = 1 << 20                            // B claims far more than a day's worth
		o.Workers = 4
		o.Requests = f.operator(t, f.urls) // as posctl fleet serve and service run it
	}
	f.start(t, nodes, nil)
	opt, err := nats.NkeyOptionFromSeed(f.seeds["B"])
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(f.urls[0], opt, nats.CustomInboxPrefix(fleet.InboxPrefix+"B"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return f, obs, &lightTerminal{id: "B", nc: nc}
}

// TestFloodDelaysNoOne: terminal A1 sends claims as fast as two connections allow; B's
// claims meanwhile are each answered (none waits out a terminal's 2 s timeout), the
// flood's overflow is dropped and counted against A1, never against B. On the code before
// (one queue for every terminal) B's claims timed out behind A1's. The latency goal
// (p99 ≤ 50 ms) is BenchmarkClaimDuringFlood's.
func TestFloodDelaysNoOne(t *testing.T) {
	if testing.Short() {
		t.Skip("a flood: not with -short")
	}
	for _, nodes := range []int{1, 3} {
		t.Run(strconv.Itoa(nodes)+"-node", func(t *testing.T) { testFloodDelaysNoOne(t, nodes) })
	}
}

func testFloodDelaysNoOne(t *testing.T, nodes int) {
	f, obs, b := floodFleet(t, nodes)
	stop := make(chan struct{})
	sent := flood(t, f, "A1", 2, stop)
	time.Sleep(500 * time.Millisecond) // the flood is on
	lat, err := timedClaims(b, 1000, 40)
	close(stop)
	if err != nil {
		t.Fatalf("B's claim %d during A1's flood: %v", len(lat), err)
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	if obs.dropped["B"] != 0 || obs.dropped["A1"] == 0 {
		t.Fatalf("dropped: %v (the flood's overflow is A1's)", obs.dropped)
	}
	t.Logf("A1 sent %d claims; %d dropped; B's 40 claims p50 %v p99 %v", sent.Load(), obs.dropped["A1"], pct(lat, .5), pct(lat, .99))
}

// BenchmarkClaimDuringFlood: B's claims, one after the other, while A1 floods the service
// from two connections; reports B's p50 and p99 (goal: p99 ≤ 50 ms) and the flood's rate.
func BenchmarkClaimDuringFlood(b *testing.B) {
	f, obs, term := floodFleet(b, 1)
	stop := make(chan struct{})
	start := time.Now()
	sent := flood(b, f, "A1", floodConns(), stop)
	time.Sleep(500 * time.Millisecond)
	b.ResetTimer()
	lat, err := timedClaims(term, 1000, b.N)
	b.StopTimer()
	close(stop)
	if err != nil {
		b.Fatalf("claim %d: %v", len(lat), err)
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	b.ReportMetric(float64(pct(lat, .5).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(pct(lat, .99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(sent.Load())/time.Since(start).Seconds(), "flood-msgs/s")
	b.ReportMetric(float64(obs.dropped["B"]), "B-dropped")
	b.ReportMetric(float64(pct(obs.bLat, .99).Microseconds())/1000, "svc-p99-ms")
}

// floodConns is the flood's connections: 2, or FLOOD_CONNS (0: no flood, the baseline).
func floodConns() int {
	if n, err := strconv.Atoi(os.Getenv("FLOOD_CONNS")); err == nil && n >= 0 {
		return n
	}
	return 2
}
