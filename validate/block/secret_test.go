package block

import (
	"math/rand/v2"
	"testing"

	"github.com/packterm/pos/validate/codes"
)

// TestSecretsMatchGeneration: the secrets derived from the seed alone are those the
// generation drew, for tickets asked in any order, with repeats.
func TestSecretsMatchGeneration(t *testing.T) {
	d := smallDefinition(rand.New(rand.NewPCG(3, 3)), 300)
	p, err := NewPlan(d, 7, Seed{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	want := map[codes.TicketID][codes.SecretSize]byte{}
	if err := p.Tickets(0, func(tk *Ticket) error { want[tk.ID] = tk.Secret; return nil }); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(4, 4))
	var ids []codes.TicketID
	for range 200 {
		ids = append(ids, codes.TicketID{Block: 7, Pack: uint32(r.IntN(300)), Position: uint8(1 + r.IntN(8))})
	}
	ids = append(ids, ids[0], codes.TicketID{Block: 7, Pack: 299, Position: 8})
	n := 0
	err = p.Seed.Secrets(ids, func(id codes.TicketID, s [codes.SecretSize]byte) {
		n++
		if want[id] != s {
			t.Errorf("ticket %v: secret differs from the generation's", id)
		}
	})
	if err != nil || n != len(ids) {
		t.Fatalf("secrets: %v, %d of %d", err, n, len(ids))
	}
	if (Seed{1, 2, 4}).Secrets(ids[:1], func(id codes.TicketID, s [codes.SecretSize]byte) {
		if want[id] == s {
			t.Error("another seed gives the same secret")
		}
	}) != nil {
		t.Fatal("secrets failed")
	}
	if err := p.Seed.Secrets([]codes.TicketID{{Block: 7, Pack: 1, Position: 9}}, func(codes.TicketID, [codes.SecretSize]byte) {}); err == nil {
		t.Error("position 9 accepted")
	}
}
