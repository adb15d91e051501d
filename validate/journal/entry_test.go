package journal

import (
	"bytes"
	"errors"
	"testing"

	"github.com/packterm/pos/validate/codes"
)

// TestGameSetByAppend: the game is set in one place, Append, from the ticket's position:
// a caller leaves it 0; a sale (a pack, position 0) has none; a payout whose game
// disagrees with its ticket is refused.
func TestGameSetByAppend(t *testing.T) {
	f := newFixture(t)
	p := payoutN(4)
	p.Game = 0
	c := Entry{Kind: KindClaim, Ticket: ticketN(5), Amount: 200_00}
	ref := Entry{Kind: KindRefused, Ticket: ticketN(6), Reason: "void-pack"}
	sale := Entry{Kind: KindSale, Ticket: codes.TicketID{Block: 1, Pack: 9}, Amount: 20_00}
	for _, e := range []Entry{p, c, ref, sale} {
		r := f.append(t, e)
		if r.Game != int(e.Ticket.Position) {
			t.Errorf("%s of %v: game %d, want %d", r.Kind, r.Ticket, r.Game, e.Ticket.Position)
		}
	}
	bad := payoutN(7)
	bad.Game = int(bad.Ticket.Position%8) + 1
	if _, err := f.j.Append(bad); !errors.Is(err, ErrInvalidEntry) {
		t.Fatalf("payout with another game: %v", err)
	}
}

// TestDecodeRefusesNonCanonicalCode: a record's code field is the canonical text of a
// validation code or nothing; the same code in lower case (what a scanner may give) does
// not decode, so a record re-encodes to its own bytes.
func TestDecodeRefusesNonCanonicalCode(t *testing.T) {
	r := Record{Entry: payoutN(3), Terminal: "T1", Seq: 1, Version: RecordVersionUnsigned}
	r.Time = testStart
	b := seal(&r)
	if _, err := DecodeRecord(b); err != nil {
		t.Fatalf("the record itself: %v", err)
	}
	text := []byte(r.CodeText())
	i := bytes.Index(b, text)
	if i < 0 {
		t.Fatal("code text not in the record")
	}
	copy(b[i:], bytes.ToLower(text))
	h := recordHash(b[:len(b)-32])
	copy(b[len(b)-32:], h[:])
	if _, err := DecodeRecord(b); !errors.Is(err, ErrFormat) {
		t.Fatalf("lower-case code: %v, want ErrFormat", err)
	}
	for _, e := range []Entry{{}, {Kind: KindSale}} {
		if e.HasCode() || e.CodeText() != "" {
			t.Errorf("%+v holds a code", e)
		}
	}
}
