package codes

import "strconv"

// TicketID is a ticket's stable identity within the operator's whole emission: block, pack
// number in the block (0-based) and position in the pack (1..8, = game). It is the key the
// ledger, the journal and the fleet-wide claims registry use (SPEC §10).
type TicketID struct {
	Block    uint16
	Pack     uint32
	Position uint8
}

// Validate reports whether every field is in range.
func (id TicketID) Validate() error {
	if err := checkBlockPack(KindUnknown, id.Block, id.Pack); err != nil {
		return err
	}
	if id.Position < 1 || id.Position > TicketsPerPack {
		return fail(KindUnknown, ErrRange, "position %d not in 1..%d", id.Position, TicketsPerPack)
	}
	return nil
}

// Index is the ticket's index within its block, 0 ≤ Index < PacksPerBlock·TicketsPerPack:
// Pack·8 + Position−1. The ledger stores one entry per index.
func (id TicketID) Index() uint32 { return id.Pack*TicketsPerPack + uint32(id.Position) - 1 }

// Game is the ticket's game (emission) number: position k is game k (règlement 4.1).
func (id TicketID) Game() uint8 { return id.Position }

// String formats the identity as "block/pack/position", e.g. "0042/0123456/3".
func (id TicketID) String() string {
	b := make([]byte, 0, 14)
	b = appendDigits(b, uint32(id.Block), 4)
	b = append(b, '/')
	b = appendDigits(b, id.Pack, 7)
	b = append(b, '/')
	b = strconv.AppendUint(b, uint64(id.Position), 10)
	return string(b)
}

func checkBlockPack(k Kind, block uint16, pack uint32) error {
	if block < MinBlock || block > MaxBlock {
		return fail(k, ErrRange, "block %d not in %d..%d", block, MinBlock, MaxBlock)
	}
	if pack >= PacksPerBlock {
		return fail(k, ErrRange, "pack %d not in 0..%d", pack, PacksPerBlock-1)
	}
	return nil
}

// appendDigits appends v as exactly n decimal digits (v < 10ⁿ is the caller's duty).
func appendDigits(b []byte, v uint32, n int) []byte {
	var tmp [10]byte
	for i := n - 1; i >= 0; i-- {
		tmp[i] = byte('0' + v%10)
		v /= 10
	}
	return append(b, tmp[:n]...)
}

// digitsValue reads the decimal value of digit values d (0..9 each).
func digitsValue(d []byte) uint32 {
	var v uint32
	for _, x := range d {
		v = v*10 + uint32(x)
	}
	return v
}
