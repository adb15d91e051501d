package journal

import (
	"encoding/binary"
	"time"
)

// DayTotals is the per-day summary the journal keeps up to date in the same transaction as
// each record (never computed by a scan).
type DayTotals struct {
	Day           string // "2006-01-02" (terminal's local day per the clock's location)
	Sales         int
	SalesAmount   int64
	Payouts       int
	PayoutsAmount int64
	Claims        int
	ClaimsAmount  int64
	PerGame       [9]struct {
		Payouts int
		Amount  int64
	} // index 1..8
}

const totalsSize = 11 * 16

// add counts r in the totals.
func (t *DayTotals) add(r *Record) {
	switch r.Kind {
	case KindSale:
		t.Sales++
		t.SalesAmount += r.Amount
	case KindPayout:
		t.Payouts++
		t.PayoutsAmount += r.Amount
		if r.Game >= 1 && r.Game <= 8 {
			t.PerGame[r.Game].Payouts++
			t.PerGame[r.Game].Amount += r.Amount
		}
	case KindClaim:
		t.Claims++
		t.ClaimsAmount += r.Amount
	}
}

// counts reports whether r changes a day's totals.
func counts(k Kind) bool { return k == KindSale || k == KindPayout || k == KindClaim }

func (t *DayTotals) appendBinary(b []byte) []byte {
	pair := func(n int, a int64) {
		b = binary.BigEndian.AppendUint64(b, uint64(n))
		b = binary.BigEndian.AppendUint64(b, uint64(a))
	}
	pair(t.Sales, t.SalesAmount)
	pair(t.Payouts, t.PayoutsAmount)
	pair(t.Claims, t.ClaimsAmount)
	for g := 1; g <= 8; g++ {
		pair(t.PerGame[g].Payouts, t.PerGame[g].Amount)
	}
	return b
}

func decodeTotals(day string, b []byte) (DayTotals, error) {
	if len(b) != totalsSize {
		return DayTotals{}, badFormat("day totals: %d bytes, want %d", len(b), totalsSize)
	}
	t := DayTotals{Day: day}
	i := 0
	bad := false
	pair := func() (int, int64) {
		n, a := binary.BigEndian.Uint64(b[i:]), binary.BigEndian.Uint64(b[i+8:])
		i += 16
		if n > 1<<40 || a > 1<<62 {
			bad = true
		}
		return int(n), int64(a)
	}
	t.Sales, t.SalesAmount = pair()
	t.Payouts, t.PayoutsAmount = pair()
	t.Claims, t.ClaimsAmount = pair()
	for g := 1; g <= 8; g++ {
		t.PerGame[g].Payouts, t.PerGame[g].Amount = pair()
	}
	if bad {
		return DayTotals{}, badFormat("day totals %s: value out of range", day)
	}
	return t, nil
}

// dayKey is the key of day in the days bucket (its date in its own location).
func dayKey(day time.Time) string { return day.Format(time.DateOnly) }
