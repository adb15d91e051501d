package server_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/fleet/fleettest"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

func secret(id codes.TicketID) [codes.SecretSize]byte {
	return [codes.SecretSize]byte{byte(id.Block), byte(id.Pack), id.Position, 7}
}

func everyOther(id codes.TicketID) uint8 { return uint8(id.Position % 2) }

// TestLedgersFailClosed: the claim service's ledgers are verified against the operator's
// keys before use: no key, a file signed by another key, or a file changed after signing
// stops the service at start; a file rewritten once loaded changes no answer (the service
// holds its verified copy); a block published later is found by the rescan an unknown
// block triggers, at most once per interval, and one that does not verify is not used.
func TestLedgersFailClosed(t *testing.T) {
	b7 := fleettest.NewBlock(t, 7, 4, secret, everyOther)
	dir := t.TempDir()
	path := b7.Write(t, dir)
	if _, err := server.LoadLedgers(dir, ledger.NewTrustStore(), server.LedgerOptions{}); !errors.Is(err, ledger.ErrNoTrustedKey) {
		t.Fatalf("no trusted key: %v", err)
	}
	other, _, _ := ed25519.GenerateKey(rand.Reader)
	if _, err := server.LoadLedgers(dir, ledger.NewTrustStore(other), server.LedgerOptions{}); !errors.Is(err, ledger.ErrUntrustedKey) {
		t.Fatalf("another operator's key: %v", err)
	}
	changed := append([]byte(nil), b7.Data...)
	changed[len(changed)-100] ^= 1 // an entry
	os.WriteFile(path, changed, 0o644)
	if _, err := server.LoadLedgers(dir, b7.Trust, server.LedgerOptions{}); err == nil {
		t.Fatal("a changed ledger loaded")
	}
	b7.Write(t, dir)
	clock := clockwork.NewFakeClock()
	ls, err := server.LoadLedgers(dir, b7.Trust, server.LedgerOptions{Clock: clock, Rescan: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	win := codes.TicketID{Block: 7, Pack: 2, Position: 3}
	if r, err := ls.Lookup(b7.Code(win)); err != nil || !r.Winner() {
		t.Fatalf("winner: %+v %v", r, err)
	}
	os.WriteFile(path, changed, 0o644) // rewritten in place once loaded
	if r, err := ls.Lookup(b7.Code(win)); err != nil || !r.Winner() {
		t.Fatalf("after the file changed: %+v %v", r, err)
	}

	// Block 8, signed by the same operator, published later; a bad block 9 beside it.
	b8 := fleettest.NewBlock(t, 8, 2, secret, everyOther)
	data8, err := ledger.Marshal(ledger.Header{Block: 8, Version: 1, Packs: 2, Definition: b8.Def}, entriesOf(b8), b7.Key)
	if err != nil {
		t.Fatal(err)
	}
	id8 := codes.TicketID{Block: 8, Pack: 1, Position: 1}
	os.WriteFile(filepath.Join(dir, ledger.FileName(8)), data8, 0o644)
	fleettest.NewBlock(t, 9, 2, secret, everyOther).Write(t, dir) // another key
	if _, err := ls.Lookup(b8.Code(id8)); !errors.Is(err, ledger.ErrUnknownBlock) {
		t.Fatalf("block 8 before the rescan interval: %v", err)
	}
	clock.Advance(time.Minute)
	if r, err := ls.Lookup(b8.Code(id8)); err != nil || !r.Winner() {
		t.Fatalf("block 8 after the rescan: %+v %v", r, err)
	}
	if _, err := ls.Lookup(codes.ValidationCodeOf(codes.TicketID{Block: 9, Pack: 1, Position: 1}, secret(codes.TicketID{Block: 9, Pack: 1, Position: 1}))); !errors.Is(err, ledger.ErrUnknownBlock) {
		t.Fatalf("block 9, signed by another key: %v", err)
	}
	if bs := ls.Blocks(); len(bs) != 2 || bs[0] != 7 || bs[1] != 8 {
		t.Fatalf("blocks %v", bs)
	}
}

// entriesOf re-seals a block's entries (to sign them with another key).
func entriesOf(b *fleettest.Block) *ledger.Entries {
	h := b.Ledger.Header()
	e := ledger.NewEntries(h.Entries())
	for i := range h.Entries() {
		v, _ := b.Ledger.Entry(i)
		e.Set(i, v)
	}
	return e
}
