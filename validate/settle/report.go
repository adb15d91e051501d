package settle

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// Totals are the sums of one retailer's records of one block.
type Totals struct {
	Sales, Payouts, Claims, Unconfirmed, Conflicts int
	SalesAmount, PayoutsAmount                     int64
	ClaimsAmount, UnconfirmedAmount                int64
}

func (t *Totals) add(r *journal.Record) {
	switch r.Kind {
	case journal.KindSale:
		t.Sales++
		t.SalesAmount += r.Amount
	case journal.KindPayout:
		t.Payouts++
		t.PayoutsAmount += r.Amount
		if r.Unconfirmed() {
			t.Unconfirmed++
			t.UnconfirmedAmount += r.Amount
		}
	case journal.KindClaim:
		t.Claims++
		t.ClaimsAmount += r.Amount
	case journal.KindConflict:
		t.Conflicts++
	}
}

// Row is one retailer and block of the report.
type Row struct {
	Retailer uint32 // 0: terminal not in the registry
	Block    uint16
	Totals
}

// ConflictLine is one conflict record as a terminal wrote it.
type ConflictLine struct {
	Retailer uint32
	Record   string
	Ticket   codes.TicketID
	Reason   string
	Detail   string
}

// Gap is a run of records missing from a terminal's published journal (not yet
// published, or lost: the terminal's own journal has them).
type Gap struct {
	Terminal    string
	First, Last uint64
}

// Report is the fleet's report over a set of records.
type Report struct {
	Rows      []Row // by retailer, then block
	Conflicts []ConflictLine
	Gaps      []Gap
	Unknown   []string // terminals not in the registry
	Forks     []string // record ids published with two different contents (journal reset or replaced)
	Records   int      // distinct records counted
}

// Build sums records (each record id once) per retailer and block; retailerOf maps a
// terminal to its retailer (false: not registered, counted under retailer 0 and listed).
func Build(records []journal.Record, retailerOf func(terminal string) (uint32, bool)) Report {
	var rep Report
	rows := map[[2]uint32]*Totals{}
	seen := map[recordKeyT]bool{}
	hashOf := map[string][32]byte{}
	seqs := map[string][]uint64{}
	unknown := map[string]bool{}
	for i := range records {
		r := &records[i]
		if seen[recordKey(r)] {
			continue
		}
		seen[recordKey(r)] = true
		rep.Records++
		if h, ok := hashOf[r.ID()]; ok && h != r.Hash {
			rep.Forks = append(rep.Forks, r.ID())
		} else if !ok {
			hashOf[r.ID()] = r.Hash
			seqs[r.Terminal] = append(seqs[r.Terminal], r.Seq)
		}
		ret, ok := retailerOf(r.Terminal)
		if !ok && !unknown[r.Terminal] {
			unknown[r.Terminal] = true
			rep.Unknown = append(rep.Unknown, r.Terminal)
		}
		if r.Ticket.Block == 0 {
			continue // no ticket: nothing to sum per block
		}
		k := [2]uint32{ret, uint32(r.Ticket.Block)}
		if rows[k] == nil {
			rows[k] = &Totals{}
		}
		rows[k].add(r)
		if r.Kind == journal.KindConflict {
			rep.Conflicts = append(rep.Conflicts, ConflictLine{Retailer: ret, Record: r.ID(), Ticket: r.Ticket, Reason: r.Reason, Detail: r.Detail})
		}
	}
	for k, t := range rows {
		rep.Rows = append(rep.Rows, Row{Retailer: k[0], Block: uint16(k[1]), Totals: *t})
	}
	slices.SortFunc(rep.Rows, func(a, b Row) int { return cmp.Or(cmp.Compare(a.Retailer, b.Retailer), cmp.Compare(a.Block, b.Block)) })
	slices.SortFunc(rep.Conflicts, func(a, b ConflictLine) int { return cmp.Compare(a.Record, b.Record) })
	slices.Sort(rep.Unknown)
	slices.Sort(rep.Forks)
	for term, s := range seqs {
		slices.Sort(s)
		next := uint64(1)
		for _, q := range s {
			if q > next {
				rep.Gaps = append(rep.Gaps, Gap{Terminal: term, First: next, Last: q - 1})
			}
			next = q + 1
		}
	}
	slices.SortFunc(rep.Gaps, func(a, b Gap) int { return cmp.Or(cmp.Compare(a.Terminal, b.Terminal), cmp.Compare(a.First, b.First)) })
	return rep
}

// WriteText writes the report for the operator (English; amounts in euros).
func (rep *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "fleet report: %d records\n", rep.Records)
	fmt.Fprintf(&b, "%-9s %-5s %7s %12s %7s %12s %7s %12s %11s %12s %9s\n", "retailer", "block",
		"sales", "EUR", "payouts", "EUR", "claims", "EUR", "unconfirmed", "EUR", "conflicts")
	for _, r := range rep.Rows {
		fmt.Fprintf(&b, "%-9d %-5d %7d %12s %7d %12s %7d %12s %11d %12s %9d\n", r.Retailer, r.Block,
			r.Sales, journal.Euros(r.SalesAmount), r.Payouts, journal.Euros(r.PayoutsAmount),
			r.Claims, journal.Euros(r.ClaimsAmount), r.Unconfirmed, journal.Euros(r.UnconfirmedAmount), r.Conflicts)
	}
	if len(rep.Conflicts) > 0 {
		fmt.Fprintf(&b, "\nCONFLICTS (a ticket paid at two terminals; nothing resolved automatically): %d records\n", len(rep.Conflicts))
		for _, c := range rep.Conflicts {
			fmt.Fprintf(&b, "  retailer %d  %s  ticket %v  %s: %s\n", c.Retailer, c.Record, c.Ticket, c.Reason, c.Detail)
		}
	}
	for _, g := range rep.Gaps {
		fmt.Fprintf(&b, "gap: terminal %s records %d..%d not published\n", g.Terminal, g.First, g.Last)
	}
	for _, f := range rep.Forks {
		fmt.Fprintf(&b, "fork: record %s published with two different contents (journal reset or replaced)\n", f)
	}
	for _, u := range rep.Unknown {
		fmt.Fprintf(&b, "unknown terminal: %s (not in the registry)\n", u)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteText writes the settlement for the operator; it never shows a validation code.
func (res *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "settlement of block %d: %d payouts checked against the block's seed, %d of other blocks skipped\n",
		res.Block, res.Checked, res.OtherBlock)
	if len(res.Forgeries) == 0 {
		b.WriteString("no forged payout\n")
	} else {
		fmt.Fprintf(&b, "FORGED PAYOUTS: %d\n", len(res.Forgeries))
		for _, f := range res.Forgeries {
			fmt.Fprintf(&b, "  %s  terminal %s  ticket %v  %s EUR  %s  %s\n", f.Record, f.Terminal, f.Ticket,
				journal.Euros(f.Amount), f.Time.Format("2006-01-02 15:04:05 -07:00"), f.Reason)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// recordKeyT identifies a record's content: its id and hash (the same record published
// twice counts once; another record under the same id counts too).
type recordKeyT struct {
	id   string
	hash [32]byte
}

func recordKey(r *journal.Record) recordKeyT { return recordKeyT{r.ID(), r.Hash} }
