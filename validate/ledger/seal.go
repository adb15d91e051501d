package ledger

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/packterm/pos/validate/codes"
)

// Entry is a ticket's sealed tier (format 2, 68 bits): Tier is the tier under the pad's
// 4-bit tier mask, Check the pad's 64 check bits, which only the ticket's secret turns
// into zeros.
type Entry struct {
	// Tier holds the sealed tier in its low 4 bits (the upper 4 are zero).
	Tier uint8
	// Check is the 64-bit check.
	Check uint64
}

const (
	// EntryBits is the size of an entry in bits; two entries are packed in PairSize bytes.
	EntryBits = TierBits + CheckBits
	// TierBits is the number of bits of an entry that carry the tier.
	TierBits = 4
	// CheckBits is the number of check bits: a wrong secret is accepted with probability
	// 2^-CheckBits at most, and an offline search for one ticket's secret costs 2^CheckBits
	// pad evaluations (docs/ledger.md, "What it costs to forge").
	CheckBits = 64
	// MaxTier is the largest tier an entry can hold (a game has at most 15 prize lines).
	MaxTier = 1<<TierBits - 1
	// PairSize is the number of bytes two packed entries take.
	PairSize = 17

	tierMask = 1<<TierBits - 1
)

// sealLabel domain-separates the seal KDF from any other use of a validation secret and
// from the format 1 pad ("packterm/ledger/seal/v1\0").
const sealLabel = "packterm/ledger/seal/v2\x00"

// kdfInputSize is the one-step KDF's input: counter, secret, label, block, index.
const kdfInputSize = 4 + codes.SecretSize + len(sealLabel) + 2 + 4

// padOf is the ticket's 68-bit pad, from the one-step key derivation function of NIST SP
// 800-56C rev. 2 (§4.1, option 1, H = SHA-256): SHA-256(counter=1 ‖ Z ‖ FixedInfo) with
// the 80-bit validation secret as Z and, as FixedInfo, the label, the block and the
// ticket's index in the block, so that one guessed secret tests one ticket of one block
// only. The tier mask is the high nibble of digest byte 0, the check digest bytes 1..8
// (big-endian). The input is 44 bytes: one SHA-256 compression.
func padOf(block uint16, index uint32, secret *[codes.SecretSize]byte) Entry {
	var in [kdfInputSize]byte
	binary.BigEndian.PutUint32(in[0:], 1)
	copy(in[4:], secret[:])
	m := in[4+codes.SecretSize:]
	copy(m, sealLabel)
	binary.BigEndian.PutUint16(m[len(sealLabel):], block)
	binary.BigEndian.PutUint32(m[len(sealLabel)+2:], index)
	h := sha256.Sum256(in[:])
	return Entry{Tier: h[0] >> 4, Check: binary.BigEndian.Uint64(h[1:9])}
}

func pad(id codes.TicketID, secret *[codes.SecretSize]byte) Entry {
	return padOf(id.Block, id.Index(), secret)
}

// Seal returns the entry of ticket id with the given validation secret and tier (0 for a
// losing ticket, k for the k-th line of its game's prize table, 1-based, table order). It
// is a pure function of its arguments. It panics if tier > MaxTier, which no valid game
// definition allows (Write checks the definitions).
func Seal(id codes.TicketID, secret [codes.SecretSize]byte, tier uint8) Entry {
	if tier > MaxTier {
		panic(fmt.Sprintf("ledger: seal: tier %d above %d", tier, MaxTier))
	}
	p := pad(id, &secret)
	p.Tier ^= tier
	return p
}

// Open is the inverse of Seal: it returns the tier sealed in e for ticket id and secret,
// or ErrForged when the secret is not the one e was sealed with (with probability
// 1 − 2^-64 at least for any wrong secret).
func Open(e Entry, id codes.TicketID, secret [codes.SecretSize]byte) (uint8, error) {
	tier, ok := open(e, id, &secret)
	if !ok {
		return 0, fmt.Errorf("ledger: open entry of ticket %v: %w", id, ErrForged)
	}
	return tier, nil
}

func open(e Entry, id codes.TicketID, secret *[codes.SecretSize]byte) (uint8, bool) {
	p := pad(id, secret)
	return (e.Tier ^ p.Tier) & tierMask, e.Check == p.Check && e.Tier>>TierBits == 0
}

// PackedSize is the number of bytes n packed entries take: 17 bytes per pair.
func PackedSize(n int) int { return (n + 1) / 2 * PairSize }

// Entries holds the entries of a block packed as the file stores them: entries 2k and
// 2k+1 share bytes 17k..17k+16 (docs/ledger.md, "Packing"): byte 0 holds the sealed
// tiers (entry 2k in the high nibble), bytes 1..8 entry 2k's check and bytes 9..16 entry
// 2k+1's, big-endian. Set and At on entries of different pairs may run concurrently (e.g.
// one goroutine per pack: a pack of 8 tickets is 68 whole bytes).
type Entries struct {
	n   int
	buf []byte
}

// NewEntries returns n zero entries.
func NewEntries(n int) *Entries {
	if n < 0 {
		n = 0
	}
	return &Entries{n: n, buf: make([]byte, PackedSize(n))}
}

// Len is the number of entries.
func (e *Entries) Len() int { return e.n }

// Bytes returns the packed bytes (shared, not a copy).
func (e *Entries) Bytes() []byte { return e.buf }

// Set stores entry v at index i.
func (e *Entries) Set(i int, v Entry) { setPacked(e.buf, i, v) }

// At returns the entry at index i.
func (e *Entries) At(i int) Entry { return packedAt(e.buf, i) }

// Seal seals ticket id's tier at its index id.Index() = pack·8 + position − 1, the index
// for the règlement's packs of 8 tickets. With a definition of T ≠ 8 tickets per pack use
// Set(h.Index(id), Seal(id, secret, tier)).
func (e *Entries) Seal(id codes.TicketID, secret [codes.SecretSize]byte, tier uint8) {
	e.Set(int(id.Index()), Seal(id, secret, tier))
}

func packedAt(buf []byte, i int) Entry {
	p := buf[i/2*PairSize : i/2*PairSize+PairSize]
	if i%2 == 0 {
		return Entry{Tier: p[0] >> 4, Check: binary.BigEndian.Uint64(p[1:9])}
	}
	return Entry{Tier: p[0] & tierMask, Check: binary.BigEndian.Uint64(p[9:17])}
}

func setPacked(buf []byte, i int, v Entry) {
	p := buf[i/2*PairSize : i/2*PairSize+PairSize]
	if i%2 == 0 {
		p[0] = v.Tier<<4 | p[0]&tierMask
		binary.BigEndian.PutUint64(p[1:9], v.Check)
		return
	}
	p[0] = p[0]&0xf0 | v.Tier&tierMask
	binary.BigEndian.PutUint64(p[9:17], v.Check)
}

// paddingZero reports whether the unused half of the last pair of n packed entries (odd
// n) is zero.
func paddingZero(buf []byte, n int) bool {
	if n%2 == 0 {
		return true
	}
	p := buf[len(buf)-PairSize:]
	return p[0]&tierMask == 0 && binary.BigEndian.Uint64(p[9:17]) == 0
}

// WrapEntries uses buf, n entries packed as the file stores them, without copying (e.g.
// a buffer the generator filled itself). len(buf) must be PackedSize(n).
func WrapEntries(buf []byte, n int) (*Entries, error) {
	if n < 0 || len(buf) != PackedSize(n) {
		return nil, fmt.Errorf("ledger: %d bytes for %d packed entries, want %d: %w", len(buf), n, PackedSize(max(n, 0)), ErrFormat)
	}
	return &Entries{n: n, buf: buf}, nil
}
