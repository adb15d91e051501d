package block

import (
	"fmt"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
)

// A Ticket is everything the operator knows of one ticket of the block.
type Ticket struct {
	ID     codes.TicketID
	Tier   uint8 // line of the game's table it wins (1-based), 0 when it loses
	Lot    game.Cents
	Secret [codes.SecretSize]byte
	Play   game.Play
}

// ChunkPacks is the number of packs drawn together from one pair of CSPRNG streams.
const ChunkPacks = 4096

// Chunks is the number of chunks of the block.
func (p *Plan) Chunks() int { return (p.Def.BlockPacks + ChunkPacks - 1) / ChunkPacks }

// Tickets draws the tickets of chunk c, pack by pack and position by position, and
// calls fn with each (the Ticket is reused between calls). Secrets come from the seed's
// "secret" stream of the chunk, plays from its "play" stream: chunks are independent.
func (p *Plan) Tickets(c int, fn func(*Ticket) error) error {
	first := c * ChunkPacks
	last := min(first+ChunkPacks, p.Def.BlockPacks)
	if first < 0 || first >= last {
		return fmt.Errorf("block: no chunk %d", c)
	}
	secrets := p.Seed.chacha("secret", uint64(c))
	plays := p.Seed.stream("play", uint64(c))
	var t Ticket
	for pack := first; pack < last; pack++ {
		comp := p.Composition(pack)
		for pos := 1; pos <= p.Def.TicketsPerPack; pos++ {
			t.ID = codes.TicketID{Block: p.Number, Pack: uint32(pack), Position: uint8(pos)}
			t.Tier = comp[pos-1]
			t.Lot = comp.Lot(p.Def, pos)
			secrets.Read(t.Secret[:])
			play, err := p.Def.Generate(plays, pos, t.Lot)
			if err != nil {
				return fmt.Errorf("block: ticket %v: %w", t.ID, err)
			}
			t.Play = play
			if err := fn(&t); err != nil {
				return err
			}
		}
	}
	return nil
}
