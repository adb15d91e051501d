package settle

import (
	"errors"
	"fmt"
	"slices"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
)

// ErrDefinition: the game definition given for a block is not the one it was made with
// (its manifest's definition hash, pack count or number of design patterns differ).
var ErrDefinition = errors.New("the game definition is not the block's")

// ErrBlocks: two different manifests for one block.
var ErrBlocks = errors.New("two different manifests for one block")

// Block is what proves a block's payouts: its manifest (number and seed) and the game
// definition it was generated with.
type Block struct {
	Manifest Manifest
	Def      *game.Definition
}

// Truth re-derives tickets' prizes and secrets from their blocks' recorded seeds. A
// block's plan (its design and the placement of packs, what costs: about 2 s for a
// règlement block) is rebuilt once, on first use, and kept for the Truth's life.
type Truth struct {
	blocks map[uint16]Block
	plans  map[uint16]*block.Plan
}

// NewTruth holds blocks (a manifest given twice is taken once; two different manifests
// of one block are refused, ErrBlocks). A block whose manifest names a definition hash
// must come with that definition (ErrDefinition).
func NewTruth(blocks ...Block) (*Truth, error) {
	t := &Truth{blocks: map[uint16]Block{}, plans: map[uint16]*block.Plan{}}
	for _, b := range blocks {
		if b.Def == nil {
			return nil, fmt.Errorf("settle: block %d: no game definition: %w", b.Manifest.Block, ErrDefinition)
		}
		if h := b.Manifest.DefinitionSHA256; h != "" && h != block.DefinitionSHA256(b.Def) {
			return nil, fmt.Errorf("settle: block %d was made with definition %.16s…, not this one: %w", b.Manifest.Block, h, ErrDefinition)
		}
		if b.Manifest.Packs != 0 && b.Manifest.Packs != b.Def.BlockPacks {
			return nil, fmt.Errorf("settle: block %d has %d packs, the definition %d: %w", b.Manifest.Block, b.Manifest.Packs, b.Def.BlockPacks, ErrDefinition)
		}
		if old, ok := t.blocks[b.Manifest.Block]; ok && old.Manifest != b.Manifest {
			return nil, fmt.Errorf("settle: block %d: %w", b.Manifest.Block, ErrBlocks)
		}
		t.blocks[b.Manifest.Block] = b
	}
	return t, nil
}

// Blocks lists the blocks held, in order.
func (t *Truth) Blocks() []uint16 {
	out := make([]uint16, 0, len(t.blocks))
	for b := range t.blocks {
		out = append(out, b)
	}
	slices.Sort(out)
	return out
}

// Has says whether block b's manifest is held.
func (t *Truth) Has(b uint16) bool { _, ok := t.blocks[b]; return ok }

// Plan is block b's plan, built from its seed on first use (NewPlan: design and
// placement) and checked against its manifest's number of design patterns and, when the
// manifest records it, its design's digest.
func (t *Truth) Plan(b uint16) (*block.Plan, error) {
	if p, ok := t.plans[b]; ok {
		return p, nil
	}
	bl, ok := t.blocks[b]
	if !ok {
		return nil, fmt.Errorf("settle: block %d: no manifest", b)
	}
	p, err := block.NewPlan(bl.Def, b, bl.Manifest.Seed)
	if err != nil {
		return nil, fmt.Errorf("settle: rebuilding block %d from its seed: %w", b, err)
	}
	if n := bl.Manifest.Patterns; n != 0 && n != len(p.Design.Patterns) {
		return nil, fmt.Errorf("settle: block %d: the seed and definition give %d design patterns, the manifest says %d: %w",
			b, len(p.Design.Patterns), n, ErrDefinition)
	}
	if d := bl.Manifest.DesignSHA256; d != "" && d != p.DesignSHA256() {
		return nil, fmt.Errorf("settle: block %d: the seed and definition give another design than the manifest's "+
			"(generated on another architecture? docs/block.md): %w", b, ErrDefinition)
	}
	t.plans[b] = p
	return p, nil
}

// Secrets derives the true secret of each ticket of ids (all of block b, each in the
// block) from b's seed.
func (t *Truth) Secrets(b uint16, ids []codes.TicketID) (map[codes.TicketID][codes.SecretSize]byte, error) {
	bl, ok := t.blocks[b]
	if !ok {
		return nil, fmt.Errorf("settle: block %d: no manifest", b)
	}
	out := make(map[codes.TicketID][codes.SecretSize]byte, len(ids))
	if err := bl.Manifest.Seed.Secrets(ids, func(id codes.TicketID, s [codes.SecretSize]byte) { out[id] = s }); err != nil {
		return nil, fmt.Errorf("settle: %w", err)
	}
	return out, nil
}
