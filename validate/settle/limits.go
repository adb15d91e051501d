package settle

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/packterm/pos/internal/strictjson"
	"github.com/packterm/pos/validate/journal"
)

// Reasons a payout is flagged against the limits in force on its terminal (WithLimits).
const (
	// ReasonAboveLimit: the amount paid is above the terminal's limit per ticket: the
	// winner was for a payment centre.
	ReasonAboveLimit = "above-limit"
	// ReasonAboveDayLimit: the payout took the terminal's payouts of its day above the
	// limit per day.
	ReasonAboveDayLimit = "above-day-limit"
)

// Limits are the pay limits the operator set for a terminal, in cents.
type Limits struct {
	PerTicket int64 `json:"pay_per_ticket_cents"`
	PerDay    int64 `json:"pay_per_day_cents"`
}

// MaxLimitsSize bounds a limits file.
const MaxLimitsSize = 4 << 20

// ErrLimits is wrapped by ParseLimits' errors.
var ErrLimits = errors.New("settle: bad limits file")

// ParseLimits reads the operator's limits per terminal, strict JSON (internal/strictjson):
//
//	{"terminals": {"T-0001": {"pay_per_ticket_cents": 15000, "pay_per_day_cents": 500000}}}
//
// Every terminal id is 1 to journal.MaxTerminalLen bytes and each limit above 0 and at most
// journal.MaxAmount.
func ParseLimits(data []byte) (map[string]Limits, error) {
	if len(data) > MaxLimitsSize {
		return nil, fmt.Errorf("settle: limits: %d bytes, more than %d: %w", len(data), MaxLimitsSize, ErrLimits)
	}
	var f struct {
		Terminals map[string]Limits `json:"terminals"`
	}
	if err := strictjson.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("settle: limits: %w: %w", err, ErrLimits)
	}
	if len(f.Terminals) == 0 {
		return nil, fmt.Errorf("settle: limits: no terminal: %w", ErrLimits)
	}
	for id, l := range f.Terminals {
		if id == "" || len(id) > journal.MaxTerminalLen {
			return nil, fmt.Errorf("settle: limits: terminal id %.20q: want 1 to %d bytes: %w", id, journal.MaxTerminalLen, ErrLimits)
		}
		for _, v := range []int64{l.PerTicket, l.PerDay} {
			if v <= 0 || v > journal.MaxAmount {
				return nil, fmt.Errorf("settle: limits of %.20q: %d cents out of range: %w", id, v, ErrLimits)
			}
		}
	}
	return f.Terminals, nil
}

// Option changes what Settle checks.
type Option func(*options)

type options struct {
	limits  map[string]Limits
	witness *Witnessed
}

// WithWitness adds the fleet's witness check of the same records (CheckRecords): a payout
// on a record it flags (unsigned, bad signature, re-chained, no device key) is flagged
// with that reason too, and its findings are the settlement's (Witness).
func WithWitness(w *Witnessed) Option {
	return func(o *options) { o.witness = w }
}

// WithLimits checks each payout against the limits the operator set for its terminal (a
// terminal not in limits is not checked): above the limit per ticket, or taking the
// terminal's payouts of the record's day above the limit per day, it is flagged. Whatever
// the terminal's own configuration said: the retailer who raised it paid above the
// operator's limits.
func WithLimits(limits map[string]Limits) Option {
	return func(o *options) { o.limits = limits }
}

// limitFlags are the limit flags of each payout of pays (by record id and content).
func (o *options) limitFlags(pays []*journal.Record) map[recordKeyT][]Flag {
	if len(o.limits) == 0 {
		return nil
	}
	sorted := slices.Clone(pays)
	slices.SortFunc(sorted, func(a, b *journal.Record) int {
		return cmp.Or(cmp.Compare(a.Terminal, b.Terminal), cmp.Compare(a.Seq, b.Seq))
	})
	out := map[recordKeyT][]Flag{}
	days := map[string]int64{} // terminal and day -> paid so far
	for _, r := range sorted {
		l, ok := o.limits[r.Terminal]
		if !ok {
			continue
		}
		day := r.Terminal + " " + r.Time.Format(time.DateOnly)
		before := days[day]
		days[day] += r.Amount
		if r.Amount > l.PerTicket {
			out[recordKey(r)] = append(out[recordKey(r)], Flag{ReasonAboveLimit,
				fmt.Sprintf("%s EUR paid, limit per ticket %s EUR", journal.Euros(r.Amount), journal.Euros(l.PerTicket))})
		}
		if before+r.Amount > l.PerDay {
			out[recordKey(r)] = append(out[recordKey(r)], Flag{ReasonAboveDayLimit,
				fmt.Sprintf("%s EUR paid on %s with this one, limit per day %s EUR", journal.Euros(before+r.Amount), r.Time.Format(time.DateOnly), journal.Euros(l.PerDay))})
		}
	}
	return out
}
