package settle

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// Reasons a payout is flagged (stable: the JSON output carries them).
const (
	// ReasonLoserPaid: the ticket loses (its prize, from the seed, is 0) and was paid.
	ReasonLoserPaid = "loser-paid"
	// ReasonInflated: the amount paid is above the ticket's prize.
	ReasonInflated = "inflated"
	// ReasonWrongAmount: the amount paid is below the ticket's prize.
	ReasonWrongAmount = "wrong-amount"
	// ReasonWrongCode: the payout's validation code is not the ticket's true code (a
	// forgery: wrong secret, another ticket's code, or no code that parses).
	ReasonWrongCode = "wrong-code"
	// ReasonUnknownTicket: no manifest for the ticket's block, or no such ticket in it.
	ReasonUnknownTicket = "unknown-ticket"
	// ReasonNotClaimed: the fleet's claims bucket does not hold the ticket for the
	// paying terminal (never claimed, or claimed by another).
	ReasonNotClaimed = "not-claimed"
	// ReasonConflict: the ticket was paid by more than one payout record (two terminals,
	// or twice at one).
	ReasonConflict = "conflict"
	// ReasonFork: the payout's record id was published with another content too (a
	// journal reset or replaced).
	ReasonFork = "fork"
	// ReasonUnsigned, ReasonBadSignature, ReasonRechained, ReasonNoDeviceKey: the
	// fleet's witness check of the payout's record failed (witness.go).
)

// Flag is one reason a payout is not proven, with what the operator needs to see.
type Flag struct {
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// Payout is a payout record as settlement judged it. It never holds a validation code.
type Payout struct {
	Record      string         `json:"record"` // "<terminal>/<seq>"
	Terminal    string         `json:"terminal"`
	Seq         uint64         `json:"seq"`
	ID          codes.TicketID `json:"-"`
	Ticket      string         `json:"ticket"` // "BBBB/PPPPPPP/K"
	Amount      int64          `json:"amount_cents"`
	Prize       int64          `json:"prize_cents"` // the ticket's true lot; 0 when unknown
	PrizeKnown  bool           `json:"prize_known"`
	Unconfirmed bool           `json:"unconfirmed"`
	Time        time.Time      `json:"time"`
	Flags       []Flag         `json:"flags"`
}

// Has says whether p carries a flag for reason.
func (p *Payout) Has(reason string) bool {
	return slices.ContainsFunc(p.Flags, func(f Flag) bool { return f.Reason == reason })
}

// PayoutTotals split the payouts into proven (every check passed) and flagged.
type PayoutTotals struct {
	Payouts       int   `json:"payouts"`
	Amount        int64 `json:"amount_cents"`
	Proven        int   `json:"proven"`
	ProvenAmount  int64 `json:"proven_amount_cents"`
	Flagged       int   `json:"flagged"`
	FlaggedAmount int64 `json:"flagged_amount_cents"`
	// Excess is what was paid above the true prizes of known tickets (losers paid count
	// whole): the money minted, at least.
	Excess int64 `json:"excess_cents"`
	// ByReason counts flagged payouts per reason (a payout may have several).
	ByReason map[string]int `json:"by_reason"`
}

// Settlement is the proof of every payout of a set of journal records.
type Settlement struct {
	Blocks  []uint16     `json:"blocks"` // blocks whose manifest was given
	Totals  PayoutTotals `json:"totals"`
	Flagged []Payout     `json:"flagged"` // by terminal and sequence
	// Forks lists every record id (of any kind) published with two different contents.
	Forks []string `json:"forks"`
	// Witness is the check of every record's signature and chain (SettleWitnessed; nil:
	// not made).
	Witness *Witnessed `json:"witness,omitempty"`

	flagged map[recordKeyT]bool
}

// Clean says nothing is flagged: every payout proven, no fork, and every record witnessed.
func (s *Settlement) Clean() bool {
	return len(s.Flagged) == 0 && len(s.Forks) == 0 && s.Witness.Clean()
}

// IsFlagged says whether record r is one of the flagged payouts.
func (s *Settlement) IsFlagged(r *journal.Record) bool { return s.flagged[recordKey(r)] }

// Settle proves every payout record of records (each record id and content once): the
// ticket's block has a manifest in truth and holds the ticket; the code is the ticket's
// true code (its secret derived from the seed); the amount is the ticket's prize (placed
// by the seed's design and placement); the claims bucket (ticket → holding terminal)
// holds the ticket for the paying terminal; no other payout record pays the ticket; the
// record id has one content; with WithLimits, it is within its terminal's limits; with
// WithWitness, its record passed the fleet's witness check. A payout failing any check is
// flagged with every reason.
func Settle(records []journal.Record, truth *Truth, claims map[codes.TicketID]string, opts ...Option) (*Settlement, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	w := o.witness
	pays, forks := distinctPayouts(records)
	s := &Settlement{Blocks: truth.Blocks(), Forks: forks, Flagged: []Payout{}, flagged: map[recordKeyT]bool{},
		Totals: PayoutTotals{ByReason: map[string]int{}}, Witness: w}
	proofs, err := prove(pays, truth)
	if err != nil {
		return nil, err
	}
	payers := map[codes.TicketID][]string{}
	for _, r := range pays {
		payers[r.Ticket] = append(payers[r.Ticket], r.ID())
	}
	forked := map[string]bool{}
	for _, f := range forks {
		forked[f] = true
	}
	limits := o.limitFlags(pays) // limits.go
	for i, r := range pays {
		p := proofs[i]
		if holder, ok := claims[r.Ticket]; !ok {
			p.Flags = append(p.Flags, Flag{ReasonNotClaimed, "no claim in the fleet's claims bucket"})
		} else if holder != r.Terminal {
			p.Flags = append(p.Flags, Flag{ReasonNotClaimed, "claim held by terminal " + holder})
		}
		if others := payers[r.Ticket]; len(others) > 1 {
			p.Flags = append(p.Flags, Flag{ReasonConflict, fmt.Sprintf("ticket paid by %d records: %v", len(others), others)})
		}
		if forked[r.ID()] {
			p.Flags = append(p.Flags, Flag{ReasonFork, "record id published with another content"})
		}
		p.Flags = append(p.Flags, w.FlagsOf(r)...)
		p.Flags = append(p.Flags, limits[recordKey(r)]...)
		s.count(r, &p)
	}
	slices.SortFunc(s.Flagged, func(a, b Payout) int {
		return cmp.Or(cmp.Compare(a.Terminal, b.Terminal), cmp.Compare(a.Seq, b.Seq))
	})
	return s, nil
}

// count adds p to the totals, and to the flagged list when it has a flag.
func (s *Settlement) count(r *journal.Record, p *Payout) {
	t := &s.Totals
	t.Payouts++
	t.Amount += p.Amount
	if p.PrizeKnown && p.Amount > p.Prize {
		t.Excess += p.Amount - p.Prize
	}
	if len(p.Flags) == 0 {
		t.Proven++
		t.ProvenAmount += p.Amount
		return
	}
	t.Flagged++
	t.FlaggedAmount += p.Amount
	seen := map[string]bool{}
	for _, f := range p.Flags {
		if !seen[f.Reason] {
			seen[f.Reason] = true
			t.ByReason[f.Reason]++
		}
	}
	s.Flagged = append(s.Flagged, *p)
	s.flagged[recordKey(r)] = true
}

// distinctPayouts returns the payout records of records, each id and content once, and
// every record id (of any kind) that comes with two contents.
func distinctPayouts(records []journal.Record) ([]*journal.Record, []string) {
	seen := map[recordKeyT]bool{}
	hashOf := map[string][32]byte{}
	forked := map[string]bool{}
	var pays []*journal.Record
	for i := range records {
		r := &records[i]
		k := recordKey(r)
		if seen[k] {
			continue
		}
		seen[k] = true
		if h, ok := hashOf[k.id]; ok && h != r.Hash {
			forked[k.id] = true
		} else if !ok {
			hashOf[k.id] = r.Hash
		}
		if r.Kind == journal.KindPayout {
			pays = append(pays, r)
		}
	}
	forks := make([]string, 0, len(forked))
	for id := range forked {
		forks = append(forks, id)
	}
	slices.Sort(forks)
	return pays, forks
}
