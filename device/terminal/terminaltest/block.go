package terminaltest

import (
	"context"
	"fmt"

	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// Block is the shared test block (internal/testblock: eight packs of eight tickets) with
// its ledger open: the codes the state tests scan.
type Block struct {
	*testblock.Block
	Ledger *ledger.Ledger
}

// MakeBlock generates the test block in dir and opens its ledger (Close it).
func MakeBlock(ctx context.Context, dir string) (*Block, error) {
	b, err := testblock.Make(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("terminaltest: %w", err)
	}
	trust, err := ledger.LoadTrustStore(b.Pub)
	if err != nil {
		return nil, fmt.Errorf("terminaltest: %w", err)
	}
	l, err := ledger.OpenFile(b.Ledger, trust)
	if err != nil {
		return nil, fmt.Errorf("terminaltest: %w", err)
	}
	return &Block{Block: b, Ledger: l}, nil
}

// Set is a ledger set of the block alone.
func (b *Block) Set() *ledger.Set {
	s, err := ledger.NewSet(b.Ledger)
	if err != nil {
		panic(err) // one ledger: never two of one block
	}
	return s
}

// Close closes the ledger.
func (b *Block) Close() error { return b.Ledger.Close() }

// Winner is the validation code of the first winner of exactly cents, and its row.
func (b *Block) Winner(cents int64) (string, block.Row, error) {
	r, err := b.Find(func(r block.Row) bool { return int64(r.Prize) == cents })
	return r.Validation, r, err
}

// Loser is the validation code of the first losing ticket.
func (b *Block) Loser() (string, error) {
	r, err := b.Find(func(r block.Row) bool { return r.Prize == 0 })
	return r.Validation, err
}

// Forged is a well-formed validation code for a ticket of the block whose secret is not
// the ledger's: the code of position p of pack 0 with the secret of another ticket.
func (b *Block) Forged() (string, error) {
	r, err := b.Find(func(block.Row) bool { return true })
	if err != nil {
		return "", err
	}
	c, err := codes.ParseValidation(r.Validation)
	if err != nil {
		return "", err
	}
	other := c.ID()
	other.Position = other.Position%8 + 1
	return codes.ValidationCodeOf(other, c.Secret).String(), nil
}
