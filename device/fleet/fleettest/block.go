package fleettest

import (
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// Block is a block for the fleet's tests: a ledger of Packs packs under the règlement's
// games, each ticket's secret and tier given by the test, signed by an operator key made
// for the test.
type Block struct {
	Number uint16
	Packs  uint32
	Key    ed25519.PrivateKey
	Trust  *ledger.TrustStore // the operator's public key
	Data   []byte             // the signed ledger file
	Ledger *ledger.Ledger     // Data, verified
	Def    *game.Definition

	secret func(codes.TicketID) [codes.SecretSize]byte
	tier   func(codes.TicketID) uint8
}

// NewBlock builds and signs block number's ledger: packs packs, ticket id's secret
// secret(id), its tier tier(id) (0: a losing ticket; k: the k-th line of its game).
func NewBlock(t testing.TB, number uint16, packs uint32, secret func(codes.TicketID) [codes.SecretSize]byte, tier func(codes.TicketID) uint8) *Block {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	b := &Block{Number: number, Packs: packs, Key: priv, Trust: ledger.NewTrustStore(pub), Def: game.Reglement(), secret: secret, tier: tier}
	h := ledger.Header{Block: number, Version: 1, Packs: packs, Definition: b.Def}
	entries := ledger.NewEntries(h.Entries())
	tpp := b.Def.TicketsPerPack
	for i := range h.Entries() {
		id := codes.TicketID{Block: number, Pack: uint32(i / tpp), Position: uint8(i%tpp + 1)}
		entries.Set(i, ledger.Seal(id, secret(id), tier(id)))
	}
	if b.Data, err = ledger.Marshal(h, entries, priv); err != nil {
		t.Fatal(err)
	}
	if b.Ledger, err = ledger.Parse(b.Data, b.Trust); err != nil {
		t.Fatal(err)
	}
	return b
}

// Set is the block's ledger as a set (a claim service's LedgerSource).
func (b *Block) Set(t testing.TB) *ledger.Set {
	t.Helper()
	s, err := ledger.NewSet(b.Ledger)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Code is ticket id's true validation code.
func (b *Block) Code(id codes.TicketID) codes.ValidationCode {
	return codes.ValidationCodeOf(id, b.secret(id))
}

// Lot is ticket id's prize in cents (0 for a losing ticket).
func (b *Block) Lot(id codes.TicketID) int64 {
	k := b.tier(id)
	if k == 0 {
		return 0
	}
	return int64(b.Def.Games[id.Position-1].Tiers[k-1].Amount)
}

// Write writes the ledger as dir/block-N.ledger and returns its path.
func (b *Block) Write(t testing.TB, dir string) string {
	t.Helper()
	p := filepath.Join(dir, ledger.FileName(b.Number))
	if err := os.WriteFile(p, b.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Status is a status list of retailer, signed with the block's operator key.
func (b *Block) Status(t testing.TB, retailer uint32, version uint64, ranges ...ledger.PackRange) []byte {
	t.Helper()
	data, err := ledger.MarshalStatus(&ledger.StatusList{Retailer: retailer, Version: version, Ranges: ranges}, b.Key)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Delivered is the range of every pack of the block, delivered.
func (b *Block) Delivered() ledger.PackRange {
	return ledger.PackRange{Block: b.Number, First: 0, Count: b.Packs, State: ledger.PackDelivered}
}
