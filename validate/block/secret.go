package block

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/packterm/pos/validate/codes"
)

// Secrets derives the secret of each ticket of ids from the seed, exactly as Tickets
// draws them (the "secret" stream of the ticket's chunk, read in pack and position
// order), and calls fn with each, in ticket order. Settlement uses it to recompute the
// true validation code of a paid ticket from the block's recorded seed; it needs neither
// the definition nor the printer's file. Each chunk's stream is read once, up to the last
// ticket asked for.
func (s Seed) Secrets(ids []codes.TicketID, fn func(codes.TicketID, [codes.SecretSize]byte)) error {
	sorted := slices.Clone(ids)
	slices.SortFunc(sorted, func(a, b codes.TicketID) int {
		return cmp.Or(cmp.Compare(a.Block, b.Block), cmp.Compare(a.Pack, b.Pack), cmp.Compare(a.Position, b.Position))
	})
	for _, id := range sorted {
		if err := id.Validate(); err != nil {
			return fmt.Errorf("block: secrets: %w", err)
		}
	}
	var secret [codes.SecretSize]byte
	chunk, read := -1, 0 // current chunk, tickets of it read so far
	var stream interface{ Read([]byte) (int, error) }
	for i, id := range sorted {
		if i > 0 && id == sorted[i-1] {
			fn(id, secret)
			continue
		}
		c := int(id.Pack) / ChunkPacks
		if c != chunk {
			chunk, read = c, 0
			stream = s.chacha("secret", uint64(c))
		}
		at := (int(id.Pack)-c*ChunkPacks)*codes.TicketsPerPack + int(id.Position) - 1
		for ; read <= at; read++ {
			stream.Read(secret[:])
		}
		fn(id, secret)
	}
	return nil
}
