package settle

import (
	"errors"
	"strings"
	"testing"

	"github.com/packterm/pos/validate/journal"
)

// Issue 47: the retailer with root raises their terminal's limits in its configuration and
// pays, with true codes and true amounts, a winner above the operator's limit per ticket
// and past the limit per day. Every other check passes (the prizes are real); settlement
// with the operator's limits (WithLimits) flags the one above them, naming each limit;
// without them it passes as proven.
func TestSettleFlagsPayoutsAboveTheOperatorsLimits(t *testing.T) {
	tb := newTestBlock(t)
	recs := journalRecords(t, "R1", []journal.Entry{
		payAt(tb.two, trueSecret(t, tb.two), tb.prize(tb.two)),          // R1/1: 2 €, within both
		payAt(tb.winner, trueSecret(t, tb.winner), tb.prize(tb.winner)), // R1/2: above both
	})
	claims := claimsOf(recs)
	if s, err := Settle(recs, tb.truth(t), claims); err != nil || !s.Clean() {
		t.Fatalf("without limits: %+v %v", s, err)
	}
	limits, err := ParseLimits([]byte(`{"terminals": {"R1": {"pay_per_ticket_cents": 200, "pay_per_day_cents": 200},
		"R9": {"pay_per_ticket_cents": 1, "pay_per_day_cents": 1}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Settle(recs, tb.truth(t), claims, WithLimits(limits))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Flagged) != 1 {
		t.Fatalf("flagged %+v", s.Flagged)
	}
	p := flagged(t, s, "R1/2")
	if !p.Has(ReasonAboveLimit) || !p.Has(ReasonAboveDayLimit) || len(p.Flags) != 2 || !strings.Contains(p.Flags[0].Detail, "2,00 EUR") {
		t.Errorf("above the limits: %+v", p)
	}
	if s.Totals.ByReason[ReasonAboveLimit] != 1 || s.Totals.Proven != 1 {
		t.Errorf("totals %+v", s.Totals)
	}
}

func TestParseLimitsRefusals(t *testing.T) {
	for _, bad := range []string{
		``, `{}`, `{"terminals": {}}`, `{"terminals": {"": {"pay_per_ticket_cents": 1, "pay_per_day_cents": 1}}}`,
		`{"terminals": {"T": {"pay_per_ticket_cents": 0, "pay_per_day_cents": 1}}}`,
		`{"terminals": {"T": {"pay_per_ticket_cents": 1, "pay_per_day_cents": -5}}}`,
		`{"terminals": {"T": {"pay_per_ticket_cents": 1, "pay_per_day_cents": 1, "extra": 1}}}`,
		`{"terminals": {"T": {"pay_per_ticket_cents": 1, "PAY_PER_TICKET_CENTS": 2, "pay_per_day_cents": 1}}}`,
		`{"terminals": {"T": {"pay_per_ticket_cents": 1, "pay_per_day_cents": 1}}} x`,
	} {
		if _, err := ParseLimits([]byte(bad)); !errors.Is(err, ErrLimits) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// FuzzParseLimits: any input is limits within range for named terminals, or ErrLimits.
func FuzzParseLimits(f *testing.F) {
	f.Add([]byte(`{"terminals": {"T-0001": {"pay_per_ticket_cents": 15000, "pay_per_day_cents": 500000}}}`))
	f.Add([]byte(`{"terminals": {"T": {"pay_per_ticket_cents": 1e3, "pay_per_day_cents": 1}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseLimits(b)
		if err != nil {
			if !errors.Is(err, ErrLimits) {
				t.Fatalf("error not ErrLimits: %v", err)
			}
			return
		}
		for id, l := range m {
			if id == "" || len(id) > journal.MaxTerminalLen || l.PerTicket <= 0 || l.PerDay <= 0 ||
				l.PerTicket > journal.MaxAmount || l.PerDay > journal.MaxAmount {
				t.Fatalf("accepted %q: %+v", id, l)
			}
		}
	})
}
