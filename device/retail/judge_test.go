package retail

import (
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// TestJudgeLedgerTampered: a ledger whose bytes change after it was verified (here the
// verified buffer itself; on a terminal the mapped file rewritten in place) answers the
// codes of the changed entries with LedgerTampered: no winner, no amount, the attention
// signal and the "DONNÉES REFUSÉES" screen; a winner elsewhere in the ledger still wins.
func TestJudgeLedgerTampered(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	h := ledger.Header{Block: 7, Version: 1, Packs: 20, Definition: game.Reglement()}
	n := h.Entries()
	e := ledger.NewEntries(n)
	secret := func(i int) (s [codes.SecretSize]byte) { s[0], s[1] = byte(i), byte(i>>8); return s }
	id := func(i int) codes.TicketID {
		return codes.TicketID{Block: 7, Pack: uint32(i / 8), Position: uint8(i%8 + 1)}
	}
	loser, winner := 3, n-2 // far apart: in different segments of the check
	for i := range n {
		tier := uint8(0)
		if i == winner {
			tier = 1
		}
		e.Seal(id(i), secret(i), tier)
	}
	data, err := ledger.Marshal(h, e, priv)
	if err != nil {
		t.Fatal(err)
	}
	l, err := ledger.Parse(data, ledger.NewTrustStore(pub))
	if err != nil {
		t.Fatal(err)
	}
	set, err := ledger.NewSet(l)
	if err != nil {
		t.Fatal(err)
	}
	// The loser's entry sealed again as the game's top prize, in place.
	top := uint8(len(h.Definition.Games[loser%8].Tiers))
	forged := ledger.Seal(id(loser), secret(loser), top)
	off := len(data) - ledger.PackedSize(n) + loser/2*ledger.PairSize
	data[off] = data[off]&0xf0 | forged.Tier // loser is odd: the low nibble and bytes 9..16
	for b := range 8 {
		data[off+9+b] = byte(forged.Check >> (56 - 8*b))
	}
	v := JudgeCode(set, nil, codes.ValidationCodeOf(id(loser), secret(loser)))
	if v.Outcome != decide.LedgerTampered || v.Amount() != 0 || SignalOf(v.Outcome) != SignalAttention {
		t.Fatalf("forged entry: %v, amount %d, err %v", v.Outcome, v.Amount(), v.Err)
	}
	if v.Headline() != "DONNÉES REFUSÉES" || !strings.Contains(v.Reason(), "bloc 7") {
		t.Errorf("forged entry: %q", v.Line())
	}
	if lines, err := Layout(Refusal(v), 16, 2); err != nil || !strings.Contains(strings.Join(lines, " "), "DONNÉES REFUSÉES") {
		t.Errorf("screen %q, %v", lines, err)
	}
	if v := JudgeCode(set, nil, codes.ValidationCodeOf(id(winner), secret(winner))); v.Outcome != decide.Winner || v.Amount() == 0 {
		t.Errorf("real winner: %v, %v", v.Outcome, v.Err)
	}
}
