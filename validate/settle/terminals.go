package settle

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// Registered is one terminal of the fleet's registry.
type Registered struct {
	ID       string
	Retailer uint32
}

// TerminalLine is what the fleet knows of one terminal: its last record, when the fleet
// received it, its payouts and what it paid unconfirmed (offline) that no claim of its
// own covers yet. A registered terminal without any record is Silent.
type TerminalLine struct {
	Terminal   string    `json:"terminal"`
	Retailer   uint32    `json:"retailer"`
	Registered bool      `json:"registered"`
	Records    int       `json:"records"`
	LastSeq    uint64    `json:"last_seq"`
	LastTime   time.Time `json:"last_time"` // the last record's time (the terminal's clock)
	Seen       time.Time `json:"seen"`      // when the fleet received its latest record
	Payouts    int       `json:"payouts"`
	PayoutsAmt int64     `json:"payouts_cents"`
	// Unconfirmed: payouts made while the fleet was out of reach whose ticket the claims
	// bucket does not hold for this terminal (not reconciled yet, refused, or a conflict).
	Unconfirmed    int   `json:"unconfirmed_unclaimed"`
	UnconfirmedAmt int64 `json:"unconfirmed_unclaimed_cents"`
	Silent         bool  `json:"silent"`
}

// Terminals lists every registered terminal (and every other terminal with records), by
// id: records counted once per id and content; received gives when the fleet stored a
// record (zero: unknown); claims is the claims bucket (ticket → holder).
func Terminals(reg []Registered, records []journal.Record, received func(i int) time.Time, claims map[codes.TicketID]string) []TerminalLine {
	lines := map[string]*TerminalLine{}
	for _, r := range reg {
		lines[r.ID] = &TerminalLine{Terminal: r.ID, Retailer: r.Retailer, Registered: true}
	}
	seen := map[recordKeyT]bool{}
	for i := range records {
		r := &records[i]
		if seen[recordKey(r)] {
			continue
		}
		seen[recordKey(r)] = true
		l := lines[r.Terminal]
		if l == nil {
			l = &TerminalLine{Terminal: r.Terminal}
			lines[r.Terminal] = l
		}
		l.Records++
		if r.Seq >= l.LastSeq {
			l.LastSeq, l.LastTime = r.Seq, r.Time.UTC()
		}
		if received != nil {
			if at := received(i); at.After(l.Seen) {
				l.Seen = at.UTC()
			}
		}
		if r.Kind != journal.KindPayout {
			continue
		}
		l.Payouts++
		l.PayoutsAmt += r.Amount
		if r.Unconfirmed() && claims[r.Ticket] != r.Terminal {
			l.Unconfirmed++
			l.UnconfirmedAmt += r.Amount
		}
	}
	out := make([]TerminalLine, 0, len(lines))
	for _, l := range lines {
		l.Silent = l.Records == 0
		out = append(out, *l)
	}
	slices.SortFunc(out, func(a, b TerminalLine) int { return cmp.Compare(a.Terminal, b.Terminal) })
	return out
}

// WriteTerminals writes one line per terminal, the silent ones first said so.
func WriteTerminals(w io.Writer, ts []TerminalLine) error {
	var b strings.Builder
	silent := 0
	for _, t := range ts {
		if t.Silent {
			silent++
		}
	}
	fmt.Fprintf(&b, "terminals: %d (%d silent: no record received)\n", len(ts), silent)
	for _, t := range ts {
		reg := fmt.Sprintf("retailer %d", t.Retailer)
		if !t.Registered {
			reg = "NOT REGISTERED"
		}
		if t.Silent {
			fmt.Fprintf(&b, "  %-12s %-16s SILENT: no record received\n", t.Terminal, reg)
			continue
		}
		fmt.Fprintf(&b, "  %-12s %-16s last record %d at %s, received %s; payouts %d %s EUR; unconfirmed not claimed %d %s EUR\n",
			t.Terminal, reg, t.LastSeq, stamp(t.LastTime), stamp(t.Seen), t.Payouts, journal.Euros(t.PayoutsAmt),
			t.Unconfirmed, journal.Euros(t.UnconfirmedAmt))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.UTC().Format(time.RFC3339)
}
