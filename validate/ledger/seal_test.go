package ledger

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	mrand "math/rand/v2"
	"testing"

	"github.com/packterm/pos/validate/codes"
)

func TestSealOpenEveryTier(t *testing.T) {
	r := mrand.New(mrand.NewPCG(1, 2))
	for tier := uint8(0); tier <= MaxTier; tier++ {
		for range 100 {
			var s [codes.SecretSize]byte
			binary.LittleEndian.PutUint64(s[:], r.Uint64())
			id := codes.TicketID{Block: uint16(1 + r.IntN(9999)), Pack: uint32(r.IntN(codes.PacksPerBlock)), Position: uint8(1 + r.IntN(8))}
			e := Seal(id, s, tier)
			if e.Tier>>TierBits != 0 {
				t.Fatalf("entry %+v has more than %d bits", e, EntryBits)
			}
			if e2 := Seal(id, s, tier); e2 != e {
				t.Fatalf("Seal is not a function of its arguments: %#x then %#x", e, e2)
			}
			got, err := Open(e, id, s)
			if err != nil || got != tier {
				t.Fatalf("Open(Seal(%v, tier %d)) = %d, %v", id, tier, got, err)
			}
		}
	}
}

// TestSealKnownAnswer freezes the KDF: a change here makes every printed block unreadable.
func TestSealKnownAnswer(t *testing.T) {
	secret := [codes.SecretSize]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	id := codes.TicketID{Block: 42, Pack: 123456, Position: 3}
	// SP 800-56C one-step KDF input, spelt out independently of pad().
	in := []byte{0, 0, 0, 1}
	in = append(in, secret[:]...)
	in = append(in, "packterm/ledger/seal/v2\x00"...)
	in = binary.BigEndian.AppendUint16(in, 42)
	in = binary.BigEndian.AppendUint32(in, 123456*8+2)
	if len(in) > 55 {
		t.Fatalf("KDF input is %d bytes: more than one SHA-256 block", len(in))
	}
	h := sha256.Sum256(in)
	want := Entry{Tier: h[0]>>4 ^ 7, Check: binary.BigEndian.Uint64(h[1:9])}
	if got := Seal(id, secret, 7); got != want {
		t.Fatalf("Seal = %+v, want %+v", got, want)
	}
	if got := Seal(id, secret, 7); got != (Entry{Tier: 0x8, Check: 0xe8c3fb51d9a0089e}) {
		t.Fatalf("Seal = %#x/%#016x, the frozen value is 0x8/0xe8c3fb51d9a0089e", got.Tier, got.Check)
	}
}

func TestOpenRejectsWrongSecretAndTicket(t *testing.T) {
	var s [codes.SecretSize]byte
	id := codes.TicketID{Block: 7, Pack: 99, Position: 5}
	e := Seal(id, s, 3)
	for bit := range codes.SecretSize * 8 {
		w := s
		w[bit/8] ^= 1 << (bit % 8)
		if _, err := Open(e, id, w); !errors.Is(err, ErrForged) {
			t.Errorf("secret with bit %d flipped: err %v, want ErrForged", bit, err)
		}
	}
	for _, other := range []codes.TicketID{{Block: 8, Pack: 99, Position: 5}, {Block: 7, Pack: 98, Position: 5}, {Block: 7, Pack: 99, Position: 4}} {
		if _, err := Open(e, other, s); !errors.Is(err, ErrForged) {
			t.Errorf("entry of %v opened as %v: err %v, want ErrForged", id, other, err)
		}
	}
}

func TestEntriesPacking(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 7, 8, 1001} {
		e := NewEntries(n)
		if len(e.Bytes()) != PackedSize(n) || PackedSize(n) != (n+1)/2*17 {
			t.Fatalf("n=%d: %d bytes", n, len(e.Bytes()))
		}
		r := mrand.New(mrand.NewPCG(uint64(n), 3))
		want := make([]Entry, n)
		for i := range n {
			want[i] = Entry{Tier: uint8(r.Uint32() & 0xf), Check: r.Uint64()}
			e.Set(i, want[i])
		}
		// Rewrite in reverse order: neighbours in a pair must not disturb each other.
		for i := n - 1; i >= 0; i-- {
			e.Set(i, want[i])
		}
		for i := range n {
			if got := e.At(i); got != want[i] {
				t.Fatalf("n=%d: At(%d) = %+v, want %+v", n, i, got, want[i])
			}
		}
		if !paddingZero(e.Bytes(), n) {
			t.Fatalf("n=%d: padding not zero", n)
		}
		w, err := WrapEntries(e.Bytes(), n)
		if err != nil || w.Len() != n || (n > 0 && w.At(n-1) != want[n-1]) {
			t.Fatalf("n=%d: WrapEntries: %v", n, err)
		}
		if _, err := WrapEntries(e.Bytes(), n+2); err == nil {
			t.Fatalf("n=%d: WrapEntries accepted a short buffer", n)
		}
	}
}
