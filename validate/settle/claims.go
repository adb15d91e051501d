package settle

import (
	"cmp"
	"slices"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// ClaimMismatch is a disagreement between the fleet's claims and the published payouts.
type ClaimMismatch struct {
	Ticket   codes.TicketID `json:"-"`
	Claimant string         `json:"claimant"` // terminal holding the claim ("" when none)
	Record   string         `json:"record"`   // payout record ("" when none was published)
	Payer    string         `json:"payer"`    // terminal of that record
}

// ClaimCheck lists the claims without a published payout by their holder (a terminal that
// claimed and then did not pay, or has not published yet) and the payouts whose ticket is
// not claimed by their terminal (not yet reconciled, or a conflict: see the conflicts).
type ClaimCheck struct {
	ClaimedNotPaid []ClaimMismatch `json:"claimed_not_paid"`
	PaidNotClaimed []ClaimMismatch `json:"paid_not_claimed"`
}

// CheckClaims compares claims (ticket → holding terminal) with the payout records.
func CheckClaims(claims map[codes.TicketID]string, records []journal.Record) ClaimCheck {
	cc := ClaimCheck{ClaimedNotPaid: []ClaimMismatch{}, PaidNotClaimed: []ClaimMismatch{}}
	paidBy := map[codes.TicketID]map[string]bool{}
	seen := map[recordKeyT]bool{}
	for _, r := range records {
		if r.Kind != journal.KindPayout || seen[recordKey(&r)] {
			continue
		}
		seen[recordKey(&r)] = true
		if paidBy[r.Ticket] == nil {
			paidBy[r.Ticket] = map[string]bool{}
		}
		paidBy[r.Ticket][r.Terminal] = true
		if holder := claims[r.Ticket]; holder != r.Terminal {
			cc.PaidNotClaimed = append(cc.PaidNotClaimed, ClaimMismatch{Ticket: r.Ticket, Claimant: holder, Record: r.ID(), Payer: r.Terminal})
		}
	}
	for id, holder := range claims {
		if !paidBy[id][holder] {
			cc.ClaimedNotPaid = append(cc.ClaimedNotPaid, ClaimMismatch{Ticket: id, Claimant: holder})
		}
	}
	order := func(a, b ClaimMismatch) int {
		return cmp.Or(cmp.Compare(a.Ticket.Block, b.Ticket.Block), cmp.Compare(a.Ticket.Pack, b.Ticket.Pack),
			cmp.Compare(a.Ticket.Position, b.Ticket.Position), cmp.Compare(a.Record, b.Record))
	}
	slices.SortFunc(cc.ClaimedNotPaid, order)
	slices.SortFunc(cc.PaidNotClaimed, order)
	return cc
}
