package console

import (
	"fmt"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// bigFleet fills c with 10,000 registered terminals (100 retailers; a tenth never seen)
// and a day of 100,000 payouts received over the last 20 hours.
func bigFleet(b *testing.B, c *Console) {
	b.Helper()
	const terminals, payouts = 10_000, 100_000
	ids := make(map[string]uint32, terminals)
	for i := range terminals {
		ids[fmt.Sprintf("T%05d", i)] = uint32(1 + i%100)
	}
	m := c.Model()
	m.SetRegistry(registry(ids))
	active := terminals * 9 / 10
	start := testNow.Add(-14 * time.Hour)
	for i := range payouts {
		term := fmt.Sprintf("T%05d", i%active)
		r := rec(term, uint64(1+i/active), journal.KindPayout, 200+int64(i%7)*100,
			codes.TicketID{Block: 7, Pack: uint32(i / 8), Position: uint8(1 + i%8)}, "")
		if i%50 == 0 {
			r.Reason = journal.ReasonUnconfirmed
		}
		m.AddRecord(r, start.Add(time.Duration(i)*14*time.Hour/payouts))
		if i%3 == 0 {
			m.AddClaim(r.Ticket, term)
		}
	}
}

func benchPage(b *testing.B, path string) {
	c, _ := testConsole(b, nil)
	bigFleet(b, c)
	ck := login(b, c)
	getPage(b, c, ck, path) // sorts the ids once, as the first request does
	b.ResetTimer()
	for b.Loop() {
		if w := serve(c, request("GET", path, nil, ck)); w.Code != http.StatusOK {
			b.Fatal(w.Code)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N), "ms/page")
}

// BenchmarkOverview: the overview with 10,000 terminals and 100,000 payouts of the day
// (goal: ≤ 200 ms a page).
func BenchmarkOverview(b *testing.B) { benchPage(b, "/") }

// BenchmarkTerminals: the terminals page, its first page and a filtered one.
func BenchmarkTerminals(b *testing.B) { benchPage(b, "/terminals") }

func BenchmarkTerminalsFiltered(b *testing.B) {
	benchPage(b, "/terminals?state=silent&retailer=7&page=2&per=20")
}

// BenchmarkPayoutsOfDay: the list behind the overview's payouts count (100,000 rows,
// sorted latest first, one page shown).
func BenchmarkPayoutsOfDay(b *testing.B) { benchPage(b, "/records?day=2026-12-07&kind=payout") }

// BenchmarkFill: what the console costs beside the fleet server: the time and memory to
// take 10,000 terminals and 100,000 payouts into the model (an op is the whole fleet;
// the heap it keeps is reported as retained-MB).
func BenchmarkFill(b *testing.B) {
	var retained float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		c, _ := testConsole(b, nil)
		bigFleet(b, c)
		runtime.GC()
		runtime.ReadMemStats(&after)
		retained = float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
		runtime.KeepAlive(c)
	}
	b.ReportMetric(retained, "retained-MB")
}
