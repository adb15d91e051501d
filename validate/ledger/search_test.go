package ledger

import (
	"encoding/binary"
	"errors"
	mrand "math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/packterm/pos/validate/codes"
)

// searchBudget is the number of guessed secrets the offline search tries: 2^26 in the
// plain test run, 2^22 with -short or -race (the positive control is scaled with it).
func searchBudget() (tries int, log2 int) {
	if testing.Short() || raceEnabled {
		return 1 << 22, 22
	}
	return 1 << 26, 26
}

// offlineSearch is what an attacker with a copy of the ledger does: guess secrets for one
// chosen ticket and test each against its entry with the format's own pad function, on
// every core. It returns the guesses whose pad matches the entry's whole 64-bit check
// (forgeries of format 2) and those that match only its top controlBits bits (forgeries
// of a deliberately shortened check: the positive control).
func offlineSearch(e Entry, id codes.TicketID, tries, controlBits int) (full, control [][codes.SecretSize]byte) {
	workers := runtime.GOMAXPROCS(0)
	var mu sync.Mutex
	var wg sync.WaitGroup
	shift := CheckBits - controlBits
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := mrand.New(mrand.NewPCG(uint64(w), 0x5ea7c4))
			var s [codes.SecretSize]byte
			for range tries / workers {
				binary.LittleEndian.PutUint64(s[:], r.Uint64())
				binary.LittleEndian.PutUint16(s[8:], uint16(r.Uint64()))
				p := padOf(id.Block, id.Index(), &s)
				if p.Check>>shift == e.Check>>shift {
					mu.Lock()
					control = append(control, s)
					if p.Check == e.Check {
						full = append(full, s)
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return full, control
}

// TestOfflineSearchFindsNothing: an offline search of 2^26 guesses (2^22 with -short or
// -race) against a losing ticket's entry finds no secret that the ledger accepts, while
// the same search against the same entry with the check cut to 24 bits (20 with -short
// or -race: about four expected hits either way) finds forgeries. The control shows the
// search works; the 64-bit check is what defeats it (expected hits 2^26 / 2^64 ≈ 4·10^-12).
// Each control hit is then refused by the real ledger: one guess tests one ticket, and
// the full check refuses it.
func TestOfflineSearchFindsNothing(t *testing.T) {
	pub, priv := testKey(t)
	b := newTestBlock(t, 42, 50, 17)
	l, err := Parse(marshalTest(t, b, priv), NewTrustStore(pub))
	if err != nil {
		t.Fatal(err)
	}
	target := -1
	for i, tier := range b.tiers {
		if tier == 0 {
			target = i
			break
		}
	}
	id := b.id(target)
	e, _ := l.Entry(target)
	tries, log2 := searchBudget()
	controlBits := log2 - 2
	full, control := offlineSearch(e, id, tries, controlBits)
	t.Logf("%d guesses for ticket %v: %d match the 64-bit check, %d match a %d-bit check", tries, id, len(full), len(control), controlBits)
	if len(full) != 0 {
		t.Fatalf("the offline search forged ticket %v: %d secrets match its 64-bit check", id, len(full))
	}
	if len(control) == 0 {
		t.Fatalf("the positive control found nothing against a %d-bit check: the search is broken", controlBits)
	}
	for _, s := range control {
		c := codes.ValidationCodeOf(id, s)
		if _, err := l.Lookup(c); !errors.Is(err, ErrForged) {
			t.Fatalf("a secret matching %d check bits of %v: %v, want ErrForged", controlBits, id, err)
		}
		// The guess was for one ticket: as the next ticket's code it is refused too.
		if _, err := l.Lookup(codes.ValidationCodeOf(b.id(target+1), s)); !errors.Is(err, ErrForged) {
			t.Fatalf("a guess for %v accepted for %v: %v", id, b.id(target+1), err)
		}
	}
}

// BenchmarkPad is the attacker's unit of work: one pad evaluation (one SHA-256
// compression). pads/s is per core; docs/ledger.md derives the cost to forge from it.
func BenchmarkPad(b *testing.B) {
	var s [codes.SecretSize]byte
	var sink uint64
	for i := 0; b.Loop(); i++ {
		binary.LittleEndian.PutUint64(s[:], uint64(i))
		sink += padOf(42, 123456, &s).Check
	}
	if sink == 1 {
		b.Log(sink)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pads/s")
}

// BenchmarkPadParallel: pad evaluations on every core; pads/s is the machine's total.
func BenchmarkPadParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		var s [codes.SecretSize]byte
		var sink uint64
		for i := 0; pb.Next(); i++ {
			binary.LittleEndian.PutUint64(s[:], uint64(i))
			sink += padOf(42, 123456, &s).Check
		}
		sinkEntry.Check += sink
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pads/s")
}
