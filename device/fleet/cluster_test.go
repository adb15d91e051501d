package fleet_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// raceSize is the claims race's size: 200 terminals and 1,000 winning tickets (50 and
// 250 under the race detector, which the full-size stage of scripts/test.sh leaves out);
// each ticket is raced by `per` terminals (all 200 with FLEET_HEAVY=1).
func raceSize() (terminals, tickets, per int) {
	switch {
	case os.Getenv("FLEET_HEAVY") != "":
		return 200, 1000, 200
	case raceEnabled:
		return 50, 250, 4
	}
	return 200, 1000, 4
}

type outcome struct {
	won   map[codes.TicketID][]string // terminals told the claim is theirs
	taken map[codes.TicketID][]string // holders named to refused terminals
}

// runRace has every terminal try its tickets in random order; a terminal told "offline"
// (the store's leader is being elected) retries until the fleet decides. A terminal
// that wins pays: its journal records the payout. kill, when set, runs once a third
// of the attempts are done.
func runRace(t *testing.T, f *testFleet, terms []*terminal, tickets, per int, kill func()) outcome {
	t.Helper()
	plan := make([][]int, len(terms))
	r := rand.New(rand.NewPCG(1, 2))
	for k := range tickets {
		for _, i := range r.Perm(len(terms))[:per] {
			plan[i] = append(plan[i], k)
		}
	}
	total := int64(tickets * per)
	var done atomic.Int64
	var once sync.Once
	out := outcome{won: map[codes.TicketID][]string{}, taken: map[codes.TicketID][]string{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	ctx := context.Background()
	errs := make(chan error, len(terms))
	for i, tm := range terms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rand.New(rand.NewPCG(uint64(i), 9)).Shuffle(len(plan[i]), func(a, b int) { plan[i][a], plan[i][b] = plan[i][b], plan[i][a] })
			for _, k := range plan[i] {
				id := ticketN(k)
				var err error
				for deadline := time.Now().Add(60 * time.Second); ; {
					_, err = tm.c.Claim(ctx, codeOf(id), lotOf(id))
					if !errors.Is(err, fleet.ErrOffline) || time.Now().After(deadline) {
						break
					}
					time.Sleep(50 * time.Millisecond)
				}
				var taken *fleet.TakenError
				switch {
				case err == nil:
					if _, err := tm.j.Append(payout(id, 5000, false)); err != nil {
						errs <- fmt.Errorf("%s: pay %v: %w", tm.id, id, err)
						return
					}
					mu.Lock()
					out.won[id] = append(out.won[id], tm.id)
					mu.Unlock()
				case errors.As(err, &taken):
					mu.Lock()
					out.taken[id] = append(out.taken[id], taken.Holder.Terminal)
					mu.Unlock()
				default:
					errs <- fmt.Errorf("%s: claim %v: %w", tm.id, id, err)
					return
				}
				if n := done.Add(1); kill != nil && n >= total/3 {
					once.Do(kill)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	return out
}

// checkRace: exactly one payment per ticket, every refusal names the winner, and the
// claims bucket holds every acknowledged claim with its winner.
func checkRace(t *testing.T, f *testFleet, terms []*terminal, out outcome, tickets, per int) {
	t.Helper()
	ctx := context.Background()
	for k := range tickets {
		id := ticketN(k)
		won := out.won[id]
		if len(won) != 1 {
			t.Fatalf("ticket %v paid by %v", id, won)
		}
		if len(won)+len(out.taken[id]) != per {
			t.Fatalf("ticket %v: %d attempts decided, want %d", id, len(won)+len(out.taken[id]), per)
		}
		for _, h := range out.taken[id] {
			if h != won[0] {
				t.Fatalf("ticket %v: refusal named %s, paid by %s", id, h, won[0])
			}
		}
		e, err := f.stores.Claims.Get(ctx, fleet.ClaimKey(id))
		if err != nil {
			t.Fatalf("ticket %v: acknowledged claim lost: %v", id, err)
		}
		c, err := fleet.DecodeClaim(e.Value())
		if err != nil || c.Terminal != won[0] {
			t.Fatalf("ticket %v: bucket holds %v (%v), paid by %s", id, c, err, won[0])
		}
	}
	paid := 0
	for _, tm := range terms {
		tm.j.Each(time.Time{}, func(r journal.Record) error {
			if r.Kind == journal.KindPayout {
				paid++
			}
			return nil
		})
	}
	if paid != tickets {
		t.Fatalf("journals hold %d payouts, want %d", paid, tickets)
	}
}

func raceTerminals(t *testing.T, f *testFleet, n int) []*terminal {
	terms := make([]*terminal, n)
	for i := range terms {
		id := fmt.Sprintf("T%03d", i)
		terms[i] = f.terminal(t, id, joinURLs(rotate(f.urls, i)), nil)
	}
	for _, tm := range terms {
		waitOnline(t, tm.c)
	}
	return terms
}

func rotate(s []string, i int) []string {
	i %= len(s)
	return append(append([]string(nil), s[i:]...), s[:i]...)
}

// TestClusterClaimsRace: 200 terminals race for the same 1,000 winning tickets on a
// 3-node cluster.
func TestClusterClaimsRace(t *testing.T) {
	nt, tickets, per := raceSize()
	f := newRegistry(t, nt)
	f.start(t, 3, nil)
	terms := raceTerminals(t, f, nt)
	start := time.Now()
	out := runRace(t, f, terms, tickets, per, nil)
	t.Logf("%d claims in %v", tickets*per, time.Since(start))
	checkRace(t, f, terms, out, tickets, per)
}

// TestClusterLeaderKilled: the claims bucket's leader node is killed a third of the way
// through the race: no acknowledged claim is lost, no ticket is paid twice.
func TestClusterLeaderKilled(t *testing.T) {
	nt, tickets, per := raceSize()
	f := newRegistry(t, nt)
	f.start(t, 3, nil)
	terms := raceTerminals(t, f, nt)
	killed := ""
	kill := func() {
		for _, s := range f.nodes {
			if s.NATS().JetStreamIsStreamLeader(server.FleetAccount, "KV_"+fleet.ClaimsBucket) {
				killed = s.NATS().Name()
				s.Shutdown()
				return
			}
		}
	}
	start := time.Now()
	out := runRace(t, f, terms, tickets, per, kill)
	t.Logf("%d claims in %v, killed %q", tickets*per, time.Since(start), killed)
	if killed == "" {
		t.Fatal("no claims leader found to kill")
	}
	checkRace(t, f, terms, out, tickets, per)
}

// TestClusterJournalLeaderKilled: terminals publish while the journal stream's leader
// node is shut down; every record ends up in the stream exactly once.
func TestClusterJournalLeaderKilled(t *testing.T) {
	const nt, per = 10, 40
	f := newRegistry(t, nt)
	f.start(t, 3, nil)
	terms := raceTerminals(t, f, nt)
	ctx := context.Background()
	var wg sync.WaitGroup
	var killOnce sync.Once
	var published atomic.Int64
	var killed atomic.Bool
	for i, tm := range terms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range per {
				if _, err := tm.j.Append(journal.Entry{Kind: journal.KindRefused, Reason: "forged", Detail: fmt.Sprint(i, "/", k)}); err != nil {
					t.Error(err)
					return
				}
				tm.c.Sync(ctx) // may fail during the election: retried below
				if published.Add(1) == nt*per/3 {
					killOnce.Do(func() {
						for _, s := range f.nodes {
							if s.NATS().JetStreamIsStreamLeader(server.FleetAccount, fleet.JournalStream) {
								s.Shutdown()
								killed.Store(true)
								return
							}
						}
					})
				}
			}
			for deadline := time.Now().Add(60 * time.Second); tm.c.Acked() < per; time.Sleep(100 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Errorf("%s: %d of %d acknowledged", tm.id, tm.c.Acked(), per)
					return
				}
				tm.c.Sync(ctx)
			}
		}()
	}
	wg.Wait()
	if !killed.Load() {
		t.Fatal("no journal stream leader found to kill")
	}
	recs, bad := streamRecords(t, f)
	seen := map[string]bool{}
	for _, r := range recs {
		if seen[r.ID()] {
			t.Fatalf("record %s stored twice", r.ID())
		}
		seen[r.ID()] = true
	}
	if len(bad) != 0 || len(seen) != nt*per {
		t.Fatalf("stream holds %d distinct records (%d bad), want %d", len(seen), len(bad), nt*per)
	}
}
