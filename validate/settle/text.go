package settle

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// WriteText writes the settlement for the operator (English, amounts in euros): the
// totals split into proven and flagged, then one line per flagged payout (its terminal,
// record, amounts and every reason), then one per fork. It never shows a validation code.
func (s *Settlement) WriteText(w io.Writer) error {
	var b strings.Builder
	s.writeTotals(&b)
	if len(s.Flagged) > 0 {
		fmt.Fprintf(&b, "FLAGGED PAYOUTS: %d\n", len(s.Flagged))
		for _, l := range s.FlaggedLines() {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	for _, f := range s.Forks {
		fmt.Fprintf(&b, "  %s\n", ForkLine(f))
	}
	for _, l := range s.Witness.Lines() {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	if s.Clean() {
		b.WriteString("every payout proven\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteTotals writes the settlement's totals alone (the report lists its findings).
func (s *Settlement) WriteTotals(w io.Writer) error {
	var b strings.Builder
	s.writeTotals(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

func (s *Settlement) writeTotals(b *strings.Builder) {
	t := &s.Totals
	fmt.Fprintf(b, "settlement: %d payouts, %s EUR; blocks proven against their seed: %v\n", t.Payouts, journal.Euros(t.Amount), s.Blocks)
	fmt.Fprintf(b, "  proven:  %7d payouts %14s EUR\n", t.Proven, journal.Euros(t.ProvenAmount))
	fmt.Fprintf(b, "  flagged: %7d payouts %14s EUR (paid above the tickets' prizes: %s EUR)\n", t.Flagged, journal.Euros(t.FlaggedAmount), journal.Euros(t.Excess))
	if len(t.ByReason) > 0 {
		reasons := make([]string, 0, len(t.ByReason))
		for r := range t.ByReason {
			reasons = append(reasons, r)
		}
		slices.Sort(reasons)
		b.WriteString("  by reason:")
		for _, r := range reasons {
			fmt.Fprintf(b, " %s %d", r, t.ByReason[r])
		}
		b.WriteString("\n")
	}
}

// FlaggedLines is one line per flagged payout: record, terminal, ticket, amount paid,
// true prize, time, then each reason with its detail.
func (s *Settlement) FlaggedLines() []string {
	out := make([]string, 0, len(s.Flagged))
	for _, p := range s.Flagged {
		prize := "unknown"
		if p.PrizeKnown {
			prize = journal.Euros(p.Prize)
		}
		reasons := make([]string, 0, len(p.Flags))
		for _, f := range p.Flags {
			reasons = append(reasons, f.Reason+": "+f.Detail)
		}
		out = append(out, fmt.Sprintf("flagged payout %s  terminal %s  ticket %s  paid %s EUR  prize %s  %s  %s", p.Record, p.Terminal, p.Ticket,
			journal.Euros(p.Amount), prize, p.Time.Format("2006-01-02 15:04:05 -07:00"), strings.Join(reasons, "; ")))
	}
	return out
}

// ForkLine is the line of a forked record id.
func ForkLine(id string) string {
	return fmt.Sprintf("fork: record %s published with two different contents (journal reset or replaced)", id)
}

// BucketConflict is one entry of the fleet's conflicts bucket: a ticket whose claim
// Holder holds and that Other paid offline (record OtherRecord). The bucket stores each
// conflict under both terminals' keys.
type BucketConflict struct {
	Ticket      codes.TicketID `json:"-"`
	Holder      string         `json:"holder"`
	HolderAt    time.Time      `json:"holder_at"`
	Other       string         `json:"other"`
	OtherRecord string         `json:"other_record"`
}

// DistinctConflicts returns each conflict once (the bucket holds it under both
// terminals' keys), in ticket order.
func DistinctConflicts(cs []BucketConflict) []BucketConflict {
	out := make([]BucketConflict, 0, len(cs))
	seen := map[BucketConflict]bool{}
	for _, c := range cs {
		c.HolderAt = c.HolderAt.UTC()
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b BucketConflict) int {
		return cmp.Or(cmp.Compare(a.Ticket.Block, b.Ticket.Block), cmp.Compare(a.Ticket.Pack, b.Ticket.Pack),
			cmp.Compare(a.Ticket.Position, b.Ticket.Position), cmp.Compare(a.Holder, b.Holder), cmp.Compare(a.OtherRecord, b.OtherRecord))
	})
	return out
}

// Flagged says whether the report shows anything the operator must look at: conflict
// records, gaps, forks or terminals not in the registry.
func (rep *Report) Flagged() bool {
	return len(rep.Conflicts) > 0 || len(rep.Gaps) > 0 || len(rep.Forks) > 0 || len(rep.Unknown) > 0
}

// Flagged says whether claims and payouts disagree.
func (cc *ClaimCheck) Flagged() bool { return len(cc.ClaimedNotPaid) > 0 || len(cc.PaidNotClaimed) > 0 }

// MarshalJSON writes the ticket as "BBBB/PPPPPPP/K".
func (c BucketConflict) MarshalJSON() ([]byte, error) {
	type plain BucketConflict
	return json.Marshal(struct {
		plain
		Ticket string `json:"ticket"`
	}{plain(c), c.Ticket.String()})
}

// MarshalJSON writes the ticket as "BBBB/PPPPPPP/K".
func (m ClaimMismatch) MarshalJSON() ([]byte, error) {
	type plain ClaimMismatch
	return json.Marshal(struct {
		plain
		Ticket string `json:"ticket"`
	}{plain(m), m.Ticket.String()})
}
