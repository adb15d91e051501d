package ledger

import (
	"errors"
	"testing"

	"github.com/packterm/pos/validate/codes"
)

// TestSet: each code is answered by its own block's ledger; a block the set lacks is
// ErrUnknownBlock; two ledgers of one block are refused; a nil set holds nothing.
func TestSet(t *testing.T) {
	pub, priv := testKey(t)
	trust := NewTrustStore(pub)
	var ls []*Ledger
	var bs []*testBlock
	for _, n := range []uint16{12, 3} {
		b := newTestBlock(t, n, 2, uint64(n))
		l, err := Parse(marshalTest(t, b, priv), trust)
		if err != nil {
			t.Fatal(err)
		}
		ls, bs = append(ls, l), append(bs, b)
	}
	s, err := NewSet(ls[0], nil, ls[1])
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2 || s.Get(3) != ls[1] || s.Get(12) != ls[0] || s.Get(4) != nil {
		t.Fatalf("set: %d ledgers, blocks %v", s.Len(), s.Blocks())
	}
	if got := s.Blocks(); len(got) != 2 || got[0] != 3 || got[1] != 12 {
		t.Errorf("blocks %v, want [3 12]", got)
	}
	for _, b := range bs {
		for i := range b.h.Entries() {
			r, err := s.Lookup(b.code(i))
			if err != nil || r.Tier != b.tiers[i] || r.Ticket != b.id(i) {
				t.Fatalf("block %d ticket %d: %+v %v", b.h.Block, i, r, err)
			}
		}
	}
	// Block 3's secret on block 12's ticket of the same place: forged.
	id := bs[0].id(5)
	if _, err := s.Lookup(codes.ValidationCodeOf(id, bs[1].secrets[5])); !errors.Is(err, ErrForged) {
		t.Errorf("another block's secret: %v", err)
	}
	id.Block = 4
	if _, err := s.Lookup(codes.ValidationCodeOf(id, bs[0].secrets[5])); !errors.Is(err, ErrUnknownBlock) {
		t.Errorf("block 4: %v", err)
	}
	if _, err := NewSet(ls[0], ls[1], ls[0]); !errors.Is(err, ErrDuplicateBlock) {
		t.Errorf("two ledgers of block 12: %v", err)
	}
	var none *Set
	if none.Len() != 0 || none.Get(3) != nil || none.Blocks() != nil || none.Close() != nil {
		t.Error("nil set holds something")
	}
	if _, err := none.Lookup(bs[0].code(0)); !errors.Is(err, ErrUnknownBlock) {
		t.Errorf("nil set lookup: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Lookup(bs[0].code(0)); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}
