package block

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/packterm/pos/validate/codes"
)

// TestPrizeMatchesGeneration: the prize derived from the plan alone is the tier and lot
// the generation drew for every ticket of the block; tickets outside it are refused.
func TestPrizeMatchesGeneration(t *testing.T) {
	d := smallDefinition(rand.New(rand.NewPCG(5, 5)), 300)
	p, err := NewPlan(d, 7, Seed{4, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	n, winners := 0, 0
	err = p.Tickets(0, func(tk *Ticket) error {
		n++
		tier, lot, err := p.Prize(tk.ID)
		if err != nil || tier != tk.Tier || lot != tk.Lot {
			t.Fatalf("ticket %v: prize %d %v %v, generation %d %v", tk.ID, tier, lot, err, tk.Tier, tk.Lot)
		}
		if lot > 0 {
			winners++
		}
		return nil
	})
	if err != nil || n != 300*8 || winners == 0 {
		t.Fatalf("%v: %d tickets, %d winners", err, n, winners)
	}
	for _, id := range []codes.TicketID{{Block: 8, Pack: 1, Position: 1}, {Block: 7, Pack: 300, Position: 1},
		{Block: 7, Pack: 1, Position: 0}, {Block: 7, Pack: 1, Position: 9}} {
		if _, _, err := p.Prize(id); !errors.Is(err, ErrNotInBlock) {
			t.Errorf("ticket %v: %v", id, err)
		}
	}
}
