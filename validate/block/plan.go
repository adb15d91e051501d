package block

import (
	"fmt"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
)

// A Plan is a block before its tickets are drawn: its number, seed, design, and which
// pattern of the design each pack number holds.
type Plan struct {
	Def    *game.Definition
	Number uint16 // block number
	Seed   Seed
	Design *Design
	// Placement[pack] is the index in Design.Patterns of the pack's composition.
	Placement []uint32
}

// NewPlan solves the design of block number with definition d and places its packs
// across pack numbers by a Fisher–Yates shuffle driven by the seed's CSPRNG stream.
func NewPlan(d *game.Definition, number uint16, seed Seed) (*Plan, error) {
	if number < codes.MinBlock || number > codes.MaxBlock {
		return nil, fmt.Errorf("block: block number %d out of range %d–%d", number, codes.MinBlock, codes.MaxBlock)
	}
	if d.BlockPacks > codes.PacksPerBlock || d.TicketsPerPack != codes.TicketsPerPack {
		return nil, fmt.Errorf("block: the codes hold %d packs of %d tickets, the definition has %d of %d",
			codes.PacksPerBlock, codes.TicketsPerPack, d.BlockPacks, d.TicketsPerPack)
	}
	ds, err := Solve(d, seed.stream("design", 0))
	if err != nil {
		return nil, err
	}
	p := &Plan{Def: d, Number: number, Seed: seed, Design: ds, Placement: make([]uint32, 0, d.BlockPacks)}
	for i, pt := range ds.Patterns {
		for range pt.Packs {
			p.Placement = append(p.Placement, uint32(i))
		}
	}
	r := seed.stream("placement", 0)
	r.Shuffle(len(p.Placement), func(i, j int) {
		p.Placement[i], p.Placement[j] = p.Placement[j], p.Placement[i]
	})
	return p, nil
}

// Composition is the content of pack number pack.
func (p *Plan) Composition(pack int) Composition {
	return p.Design.Patterns[p.Placement[pack]].Composition
}

// DesignSHA256 is the hexadecimal SHA-256 of the design's patterns in their JSON encoding:
// what the block's manifest records, and settlement checks when it rebuilds the plan from
// the seed (the placement follows from the design and the seed).
func (p *Plan) DesignSHA256() string { return jsonSHA256(p.Design.Patterns) }
