package ledger

import (
	"testing"

	"github.com/packterm/pos/validate/codes"
)

var sinkEntry Entry

func BenchmarkSeal(b *testing.B) {
	var s [codes.SecretSize]byte
	id := codes.TicketID{Block: 42, Pack: 123456, Position: 3}
	for i := 0; b.Loop(); i++ {
		s[0] = byte(i)
		sinkEntry = Seal(id, s, uint8(i&7))
	}
}

func BenchmarkOpen(b *testing.B) {
	var s [codes.SecretSize]byte
	id := codes.TicketID{Block: 42, Pack: 123456, Position: 3}
	e := Seal(id, s, 5)
	for b.Loop() {
		if _, err := Open(e, id, s); err != nil {
			b.Fatal(err)
		}
	}
}
