package fleet_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// benchClaims: `terminals` terminals claim fresh tickets concurrently (each claim wins:
// the create-only write, the expensive path); reports claims/s and p99 latency. Every
// claim carries its code and is checked (the pack delivered to the claimant's retailer,
// the code against block 7's ledger, the amount); rate limits are lifted. wrongCode:
// every claim carries a guessed code and is refused, and recorded (the insider's path).
func benchClaims(b *testing.B, nodes int, syncAlways, refused bool) {
	benchClaimsCode(b, nodes, syncAlways, refused, false)
}

func benchClaimsCode(b *testing.B, nodes int, syncAlways, refused, wrongCode bool) {
	const terminals = 16
	f := newRegistry(b, terminals)
	f.packs = uint32(b.N/7 + 2)
	f.start(b, nodes, func(o *server.Options) { o.SyncAlways = syncAlways })
	terms := make([]*terminal, terminals)
	for i := range terms {
		terms[i] = f.terminal(b, fmt.Sprintf("T%03d", i), joinURLs(rotate(f.urls, i)), nil)
		waitOnline(b, terms[i].c)
	}
	if refused { // T000 holds every ticket first: the others measure the refusal path
		for n := 1; n <= b.N; n++ {
			if _, err := terms[0].c.Claim(context.Background(), codeOf(ticketN(n)), lotOf(ticketN(n))); err != nil {
				b.Fatal(err)
			}
		}
		terms = terms[1:]
	}
	var next atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for _, tm := range terms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for {
				n := next.Add(1)
				if n > int64(b.N) {
					break
				}
				id := ticketN(int(n))
				code := codeOf(id)
				if wrongCode {
					code = codes.ValidationCodeOf(id, [codes.SecretSize]byte{byte(n), 0xba, 0xd})
				}
				t0 := time.Now()
				_, err := tm.c.Claim(context.Background(), code, lotOf(id))
				var taken *fleet.TakenError
				switch {
				case wrongCode && errors.Is(err, fleet.ErrRefused), refused && errors.As(err, &taken), !wrongCode && !refused && err == nil:
				default:
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	el := time.Since(start)
	b.StopTimer()
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(len(lat))/el.Seconds(), "claims/s")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	}
}

func BenchmarkClaimSingleNode(b *testing.B) { benchClaims(b, 1, false, false) }

// BenchmarkClaimSingleNodeSync is posctl fleet serve's setting: fsync on every write.
func BenchmarkClaimSingleNodeSync(b *testing.B) { benchClaims(b, 1, true, false) }
func BenchmarkClaimCluster3(b *testing.B)       { benchClaims(b, 3, false, false) }

// BenchmarkClaimRefusedCluster3: claims of tickets another terminal holds.
func BenchmarkClaimRefusedCluster3(b *testing.B) { benchClaims(b, 3, false, true) }

// BenchmarkClaimWrongCodeSingleNode: claims with guessed codes, refused by the ledger
// check and each recorded in the refusals stream (one node, default sync).
func BenchmarkClaimWrongCodeSingleNode(b *testing.B) { benchClaimsCode(b, 1, false, false, true) }

// BenchmarkJournalPublish: one terminal publishes its journal (2,048 records already
// durable in it) to an empty stream, every record acknowledged; one op is the whole
// journal. Reports records/s.
func BenchmarkJournalPublish(b *testing.B) {
	const records = 2048
	f := newRegistry(b, 1)
	f.start(b, 1, func(o *server.Options) { o.SyncAlways = os.Getenv("FLEET_SYNC") == "1" })
	tm := f.terminal(b, "T000", f.urls[0], nil)
	for i := range records {
		if _, err := tm.j.Append(journal.Entry{Kind: journal.KindRefused, Reason: "forged", Detail: fmt.Sprint(i)}); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	var el time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		if err := f.js.DeleteStream(ctx, fleet.JournalStream); err != nil {
			b.Fatal(err)
		}
		if _, err := server.EnsureStores(ctx, f.js, 1); err != nil {
			b.Fatal(err)
		}
		c := f.terminal(b, "T000", f.urls[0], func(o *fleet.Options) { o.Journal = tm.j; o.StateDir = "" }).c
		waitOnline(b, c)
		b.StartTimer()
		start := time.Now()
		if err := c.Sync(ctx); err != nil {
			b.Fatal(err)
		}
		el += time.Since(start)
		if c.Acked() != records {
			b.Fatalf("acked %d of %d", c.Acked(), records)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(records*b.N)/el.Seconds(), "records/s")
}
