package ledger

import (
	"errors"
	"fmt"
	"slices"

	"github.com/packterm/pos/validate/codes"
)

// Set is the ledgers a terminal decides with, one per block: tickets of an older block are
// still validated while packs of a newer one sell. A nil *Set holds no ledger.
type Set struct {
	byBlock map[uint16]*Ledger
	blocks  []uint16 // ascending
}

// NewSet groups ledgers by block (nil ones are skipped); two ledgers of the same block are
// an error (which one would answer?).
func NewSet(ls ...*Ledger) (*Set, error) {
	s := &Set{byBlock: make(map[uint16]*Ledger, len(ls))}
	for _, l := range ls {
		if l == nil {
			continue
		}
		b := l.Header().Block
		if _, dup := s.byBlock[b]; dup {
			return nil, fmt.Errorf("ledger: set: two ledgers of block %d: %w", b, ErrDuplicateBlock)
		}
		s.byBlock[b] = l
		s.blocks = append(s.blocks, b)
	}
	slices.Sort(s.blocks)
	return s, nil
}

// Len is the number of ledgers.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.blocks)
}

// Blocks are the blocks held, ascending.
func (s *Set) Blocks() []uint16 {
	if s == nil {
		return nil
	}
	return slices.Clone(s.blocks)
}

// Get is block b's ledger, nil when the set holds none.
func (s *Set) Get(b uint16) *Ledger {
	if s == nil {
		return nil
	}
	return s.byBlock[b]
}

// Lookup answers code from its block's ledger (Ledger.Lookup); ErrUnknownBlock when the set
// holds no ledger of that block.
func (s *Set) Lookup(code codes.ValidationCode) (Result, error) {
	id := code.ID()
	l := s.Get(id.Block)
	if l == nil {
		return Result{}, fmt.Errorf("ledger: lookup %v: no ledger of block %d installed (blocks %v): %w", id, id.Block, s.Blocks(), ErrUnknownBlock)
	}
	return l.Lookup(code)
}

// Close closes every ledger of the set.
func (s *Set) Close() error {
	if s == nil {
		return nil
	}
	var errs []error
	for _, b := range s.blocks {
		errs = append(errs, s.byBlock[b].Close())
	}
	return errors.Join(errs...)
}
