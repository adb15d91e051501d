package settle

import (
	"errors"
	"fmt"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// prove checks each payout against its ticket's truth (block known, ticket in it, code,
// amount) and returns one Payout per record, in the same order, carrying those flags.
// Each block's plan is built once (truth caches it) and its secrets derived in one pass.
func prove(pays []*journal.Record, truth *Truth) ([]Payout, error) {
	out := make([]Payout, len(pays))
	byBlock := map[uint16][]int{} // payouts whose ticket is in a known block
	for i, r := range pays {
		out[i] = Payout{Record: r.ID(), Terminal: r.Terminal, Seq: r.Seq, ID: r.Ticket, Ticket: r.Ticket.String(),
			Amount: r.Amount, Unconfirmed: r.Unconfirmed(), Time: r.Time}
		switch {
		case r.Ticket.Validate() != nil:
			out[i].Flags = append(out[i].Flags, Flag{ReasonUnknownTicket, "not a ticket number"})
		case !truth.Has(r.Ticket.Block):
			out[i].Flags = append(out[i].Flags, Flag{ReasonUnknownTicket, fmt.Sprintf("block %d: no manifest given", r.Ticket.Block)})
		default:
			byBlock[r.Ticket.Block] = append(byBlock[r.Ticket.Block], i)
		}
	}
	for b, idx := range byBlock {
		if err := proveBlock(b, idx, pays, out, truth); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// proveBlock checks the payouts pays[idx] of block b.
func proveBlock(b uint16, idx []int, pays []*journal.Record, out []Payout, truth *Truth) error {
	plan, err := truth.Plan(b)
	if err != nil {
		return err
	}
	var ids []codes.TicketID
	inBlock := idx[:0:0]
	for _, i := range idx {
		p := &out[i]
		tier, lot, err := plan.Prize(pays[i].Ticket)
		if errors.Is(err, block.ErrNotInBlock) {
			p.Flags = append(p.Flags, Flag{ReasonUnknownTicket, fmt.Sprintf("block %d has %d packs: no such ticket", b, plan.Def.BlockPacks)})
			continue
		} else if err != nil {
			return err
		}
		p.Prize, p.PrizeKnown = int64(lot), true
		switch {
		case tier == 0:
			p.Flags = append(p.Flags, Flag{ReasonLoserPaid, "the ticket loses"})
		case p.Amount > p.Prize:
			p.Flags = append(p.Flags, Flag{ReasonInflated, fmt.Sprintf("paid %s EUR, prize %s EUR", journal.Euros(p.Amount), journal.Euros(p.Prize))})
		case p.Amount < p.Prize:
			p.Flags = append(p.Flags, Flag{ReasonWrongAmount, fmt.Sprintf("paid %s EUR, prize %s EUR", journal.Euros(p.Amount), journal.Euros(p.Prize))})
		}
		ids = append(ids, pays[i].Ticket)
		inBlock = append(inBlock, i)
	}
	secrets, err := truth.Secrets(b, ids)
	if err != nil {
		return err
	}
	for _, i := range inBlock {
		if why := wrongCode(pays[i], secrets[pays[i].Ticket]); why != "" {
			out[i].Flags = append(out[i].Flags, Flag{ReasonWrongCode, why})
		}
	}
	return nil
}

// wrongCode says why r's code is not its ticket's true code (secret), or "".
func wrongCode(r *journal.Record, secret [codes.SecretSize]byte) string {
	if !r.HasCode() {
		return "no validation code"
	}
	c := r.Code // typed: the journal parsed it when it read the record
	switch {
	case c.Validate() != nil:
		return "code does not parse"
	case c.ID() != r.Ticket:
		return "code of another ticket"
	case c.Secret != secret:
		return "wrong secret"
	}
	return ""
}
