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

// BinarySize is the length of a TicketID's binary form.
const BinarySize = 7

// AppendBinary appends the identity's canonical 7-byte form, big-endian: block (2 bytes),
// pack (4), position (1). It is the stable key for hashing and key derivation (the ledger,
// the claims registry); it refuses an identity out of range (encoding.BinaryAppender).
func (id TicketID) AppendBinary(b []byte) ([]byte, error) {
	if err := id.Validate(); err != nil {
		return b, err
	}
	return append(b, byte(id.Block>>8), byte(id.Block),
		byte(id.Pack>>24), byte(id.Pack>>16), byte(id.Pack>>8), byte(id.Pack), id.Position), nil
}

// MarshalBinary implements encoding.BinaryMarshaler with AppendBinary's form.
func (id TicketID) MarshalBinary() ([]byte, error) {
	return id.AppendBinary(make([]byte, 0, BinarySize))
}

// UnmarshalBinary reads AppendBinary's form; on error id is unchanged.
func (id *TicketID) UnmarshalBinary(b []byte) error {
	if len(b) != BinarySize {
		return fail(KindUnknown, ErrLength, "ticket identity: %d bytes, want %d", len(b), BinarySize)
	}
	v := TicketID{
		Block:    uint16(b[0])<<8 | uint16(b[1]),
		Pack:     uint32(b[2])<<24 | uint32(b[3])<<16 | uint32(b[4])<<8 | uint32(b[5]),
		Position: b[6],
	}
	if err := v.Validate(); err != nil {
		return err
	}
	*id = v
	return nil
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
