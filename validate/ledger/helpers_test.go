package ledger

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	mrand "math/rand/v2"
	"testing"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
)

// testBlock is a block built in the test: secrets and tiers drawn from a seeded
// generator, tiers uniform over each game's table with a loser half of the time.
type testBlock struct {
	h       Header
	secrets [][codes.SecretSize]byte
	tiers   []uint8
	entries *Entries
}

func (b *testBlock) id(i int) codes.TicketID {
	tpp := b.h.Definition.TicketsPerPack
	return codes.TicketID{Block: b.h.Block, Pack: uint32(i / tpp), Position: uint8(i%tpp + 1)}
}

func (b *testBlock) code(i int) codes.ValidationCode {
	return codes.ValidationCodeOf(b.id(i), b.secrets[i])
}

func newTestBlock(tb testing.TB, block uint16, packs uint32, seed uint64) *testBlock {
	tb.Helper()
	d := game.Reglement()
	b := &testBlock{h: Header{Block: block, Version: 1, Packs: packs, Definition: d}}
	n := b.h.Entries()
	r := mrand.New(mrand.NewPCG(seed, 7))
	b.secrets = make([][codes.SecretSize]byte, n)
	b.tiers = make([]uint8, n)
	b.entries = NewEntries(n)
	for i := range n {
		binary.LittleEndian.PutUint64(b.secrets[i][:], r.Uint64())
		binary.LittleEndian.PutUint16(b.secrets[i][8:], uint16(r.Uint32()))
		if r.IntN(2) == 1 {
			b.tiers[i] = uint8(1 + r.IntN(len(d.Games[i%d.TicketsPerPack].Tiers)))
		}
		b.entries.Seal(b.id(i), b.secrets[i], b.tiers[i])
	}
	return b
}

func testKey(tb testing.TB) (ed25519.PublicKey, ed25519.PrivateKey) {
	tb.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	return pub, priv
}
