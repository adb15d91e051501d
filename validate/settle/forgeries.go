package settle

import (
	"fmt"
	"time"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// Forgery is a payout whose validation code is not the ticket's true code. It never
// holds the code itself.
type Forgery struct {
	Record   string // record id "<terminal>/<seq>"
	Terminal string
	Ticket   codes.TicketID
	Amount   int64
	Time     time.Time
	Reason   string // "wrong secret", "code does not parse"
}

// Result is a settlement of one block's payouts.
type Result struct {
	Block      uint16
	Checked    int // payouts of the block checked (each record id once)
	OtherBlock int // payouts of other blocks, not checked here
	Forgeries  []Forgery
}

// Forgeries checks every payout record of m's block against the ticket's true
// validation code, derived from the block's seed.
func Forgeries(m Manifest, records []journal.Record) (Result, error) {
	res := Result{Block: m.Block}
	seen := map[recordKeyT]bool{}
	var pays []journal.Record
	for _, r := range records {
		if r.Kind != journal.KindPayout || seen[recordKey(&r)] {
			continue
		}
		seen[recordKey(&r)] = true
		if r.Ticket.Block != m.Block {
			res.OtherBlock++
			continue
		}
		pays = append(pays, r)
	}
	ids := make([]codes.TicketID, len(pays))
	for i, r := range pays {
		ids[i] = r.Ticket
	}
	truth := make(map[codes.TicketID][codes.SecretSize]byte, len(ids))
	if err := m.Seed.Secrets(ids, func(id codes.TicketID, s [codes.SecretSize]byte) { truth[id] = s }); err != nil {
		return res, fmt.Errorf("settle: %w", err)
	}
	for _, r := range pays {
		res.Checked++
		f := Forgery{Record: r.ID(), Terminal: r.Terminal, Ticket: r.Ticket, Amount: r.Amount, Time: r.Time}
		c, err := codes.ParseValidation(r.Code)
		switch {
		case err != nil:
			f.Reason = "code does not parse"
		case c.ID() != r.Ticket:
			f.Reason = "code of another ticket"
		case c.Secret != truth[r.Ticket]:
			f.Reason = "wrong secret"
		default:
			continue
		}
		res.Forgeries = append(res.Forgeries, f)
	}
	return res, nil
}
