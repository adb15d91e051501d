package settle

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// Totals are the sums of one retailer's records of one block. Flagged counts the
// payouts settlement did not prove (BuildSettled; 0 from Build).
type Totals struct {
	Sales             int   `json:"sales"`
	SalesAmount       int64 `json:"sales_cents"`
	Payouts           int   `json:"payouts"`
	PayoutsAmount     int64 `json:"payouts_cents"`
	Flagged           int   `json:"payouts_flagged"`
	FlaggedAmount     int64 `json:"payouts_flagged_cents"`
	Claims            int   `json:"claims"`
	ClaimsAmount      int64 `json:"claims_cents"`
	Unconfirmed       int   `json:"unconfirmed"`
	UnconfirmedAmount int64 `json:"unconfirmed_cents"`
	Conflicts         int   `json:"conflicts"`
}

func (t *Totals) add(r *journal.Record, flagged bool) {
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
		if flagged {
			t.Flagged++
			t.FlaggedAmount += r.Amount
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
	Retailer uint32 `json:"retailer"` // 0: terminal not in the registry
	Block    uint16 `json:"block"`
	Totals
}

// ConflictLine is one conflict record as a terminal wrote it.
type ConflictLine struct {
	Retailer uint32         `json:"retailer"`
	Record   string         `json:"record"`
	Ticket   codes.TicketID `json:"-"`
	Reason   string         `json:"reason"`
	Detail   string         `json:"detail"`
}

// MarshalJSON writes the ticket as "BBBB/PPPPPPP/K".
func (c ConflictLine) MarshalJSON() ([]byte, error) {
	type plain ConflictLine
	return json.Marshal(struct {
		plain
		Ticket string `json:"ticket"`
	}{plain(c), c.Ticket.String()})
}

// Gap is a run of records missing from a terminal's published journal (not yet
// published, or lost: the terminal's own journal has them).
type Gap struct {
	Terminal string `json:"terminal"`
	First    uint64 `json:"first"`
	Last     uint64 `json:"last"`
}

// Report is the fleet's report over a set of records.
type Report struct {
	Rows      []Row          `json:"rows"` // by retailer, then block
	Conflicts []ConflictLine `json:"conflict_records"`
	Gaps      []Gap          `json:"gaps"`
	Unknown   []string       `json:"unknown_terminals"` // terminals not in the registry
	Forks     []string       `json:"forks"`             // record ids published with two different contents (journal reset or replaced)
	Records   int            `json:"records"`           // distinct records counted
}

// Build sums records (each record id once) per retailer and block; retailerOf maps a
// terminal to its retailer (false: not registered, counted under retailer 0 and listed).
func Build(records []journal.Record, retailerOf func(terminal string) (uint32, bool)) Report {
	return BuildSettled(records, retailerOf, nil)
}

// BuildSettled is Build with each row's payouts split by s into proven and flagged
// (s nil: none flagged).
func BuildSettled(records []journal.Record, retailerOf func(terminal string) (uint32, bool), s *Settlement) Report {
	rep := Report{Rows: []Row{}, Conflicts: []ConflictLine{}, Gaps: []Gap{}, Unknown: []string{}, Forks: []string{}}
	rows := map[[2]uint32]*Totals{}
	seen := map[recordKeyT]bool{}
	hashOf := map[string][32]byte{}
	forked := map[string]bool{}
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
			if !forked[r.ID()] {
				forked[r.ID()] = true
				rep.Forks = append(rep.Forks, r.ID())
			}
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
		rows[k].add(r, s != nil && s.IsFlagged(r))
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
	rep.Gaps = gaps(seqs)
	return rep
}

// gaps lists the runs missing from each terminal's sequence numbers.
func gaps(seqs map[string][]uint64) []Gap {
	out := []Gap{}
	for term, s := range seqs {
		slices.Sort(s)
		next := uint64(1)
		for _, q := range s {
			if q > next {
				out = append(out, Gap{Terminal: term, First: next, Last: q - 1})
			}
			next = q + 1
		}
	}
	slices.SortFunc(out, func(a, b Gap) int { return cmp.Or(cmp.Compare(a.Terminal, b.Terminal), cmp.Compare(a.First, b.First)) })
	return out
}

// WriteText writes the report for the operator (English; amounts in euros): the table,
// then one line per finding (ReportLines).
func (rep *Report) WriteText(w io.Writer) error {
	if err := rep.WriteTable(w); err != nil {
		return err
	}
	var b strings.Builder
	for _, l := range rep.Lines() {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteTable writes the report's rows: per retailer and block, sales, payouts (flagged
// among them), claims above the limit, unconfirmed payouts, conflict records.
func (rep *Report) WriteTable(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "fleet report: %d records\n", rep.Records)
	fmt.Fprintf(&b, "%-9s %-5s %7s %12s %7s %12s %7s %12s %7s %12s %11s %12s %9s\n", "retailer", "block",
		"sales", "EUR", "payouts", "EUR", "flagged", "EUR", "claims", "EUR", "unconfirmed", "EUR", "conflicts")
	for _, r := range rep.Rows {
		fmt.Fprintf(&b, "%-9d %-5d %7d %12s %7d %12s %7d %12s %7d %12s %11d %12s %9d\n", r.Retailer, r.Block,
			r.Sales, journal.Euros(r.SalesAmount), r.Payouts, journal.Euros(r.PayoutsAmount), r.Flagged, journal.Euros(r.FlaggedAmount),
			r.Claims, journal.Euros(r.ClaimsAmount), r.Unconfirmed, journal.Euros(r.UnconfirmedAmount), r.Conflicts)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Lines is one line per finding of the report: each conflicted ticket once (both
// terminals' conflict records on its line), each gap, fork and unknown terminal.
func (rep *Report) Lines() []string {
	var out []string
	for _, g := range rep.ConflictGroups() {
		out = append(out, g.Line())
	}
	for _, g := range rep.Gaps {
		out = append(out, fmt.Sprintf("gap: terminal %s records %d..%d not published", g.Terminal, g.First, g.Last))
	}
	for _, f := range rep.Forks {
		out = append(out, ForkLine(f))
	}
	for _, u := range rep.Unknown {
		out = append(out, fmt.Sprintf("unknown terminal: %s (not in the registry)", u))
	}
	return out
}

// ConflictGroup is one ticket's conflict records (each terminal writes its own side).
type ConflictGroup struct {
	Ticket  codes.TicketID
	Records []ConflictLine
}

// ConflictGroups groups the conflict records by ticket, in ticket order.
func (rep *Report) ConflictGroups() []ConflictGroup {
	idx := map[codes.TicketID]int{}
	var out []ConflictGroup
	for _, c := range rep.Conflicts {
		i, ok := idx[c.Ticket]
		if !ok {
			i = len(out)
			idx[c.Ticket] = i
			out = append(out, ConflictGroup{Ticket: c.Ticket})
		}
		out[i].Records = append(out[i].Records, c)
	}
	slices.SortFunc(out, func(a, b ConflictGroup) int { return compareTickets(a.Ticket, b.Ticket) })
	return out
}

// Line is the group's line: "conflict: ticket T journalled by R1/4 (retailer 5,
// paid-offline-elsewhere: detail), …".
func (g ConflictGroup) Line() string {
	parts := make([]string, 0, len(g.Records))
	for _, c := range g.Records {
		parts = append(parts, fmt.Sprintf("%s (retailer %d, %s: %s)", c.Record, c.Retailer, c.Reason, c.Detail))
	}
	return fmt.Sprintf("conflict: ticket %v paid at two terminals; journalled %s", g.Ticket, strings.Join(parts, ", "))
}

func compareTickets(a, b codes.TicketID) int {
	return cmp.Or(cmp.Compare(a.Block, b.Block), cmp.Compare(a.Pack, b.Pack), cmp.Compare(a.Position, b.Position))
}

// recordKeyT identifies a record's content: its id and hash (the same record published
// twice counts once; another record under the same id counts too).
type recordKeyT struct {
	id   string
	hash [32]byte
}

func recordKey(r *journal.Record) recordKeyT { return recordKeyT{r.ID(), r.Hash} }
