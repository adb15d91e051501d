package block

import (
	"errors"
	"fmt"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
)

// ErrNotInBlock: a ticket that is not one of the plan's block (another block number, a
// pack number past the block's last, or a position the definition's packs lack).
var ErrNotInBlock = errors.New("block: ticket not in the block")

// Prize is the line of its game's table ticket id wins (1-based, 0 when it loses) and its
// lot, exactly as the generation placed them: the composition the seed's placement put
// at the ticket's pack, read at its position. It needs neither the printer's file nor
// the ledger, only the plan (design and placement, rebuilt from the recorded seed by
// NewPlan); each call is a table lookup. Settlement uses it to prove a payout's amount.
func (p *Plan) Prize(id codes.TicketID) (tier uint8, lot game.Cents, err error) {
	if id.Block != p.Number || int(id.Pack) >= len(p.Placement) || id.Position < 1 || int(id.Position) > p.Def.TicketsPerPack {
		return 0, 0, fmt.Errorf("block: ticket %v (block %d has %d packs of %d): %w", id, p.Number, len(p.Placement), p.Def.TicketsPerPack, ErrNotInBlock)
	}
	c := p.Composition(int(id.Pack))
	return c[id.Position-1], c.Lot(p.Def, int(id.Position)), nil
}
