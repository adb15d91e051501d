package ledger

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/packterm/pos/validate/codes"
)

// Entry is a ticket's sealed tier: 28 significant bits (EntryBits), the upper 4 the tier
// under a pad, the lower 24 a check that only the ticket's secret turns into zeros.
type Entry uint32

const (
	// EntryBits is the size of an entry in bits; two entries are packed in 7 bytes.
	EntryBits = 28
	// TierBits is the number of bits of an entry that carry the tier.
	TierBits = 4
	// CheckBits is the number of check bits: a wrong secret is accepted with
	// probability 2^-CheckBits at most.
	CheckBits = EntryBits - TierBits
	// MaxTier is the largest tier an entry can hold (a game has at most 15 prize lines).
	MaxTier = 1<<TierBits - 1

	entryMask = 1<<EntryBits - 1
	checkMask = 1<<CheckBits - 1
)

// sealLabel domain-separates the seal KDF from any other use of a validation secret.
const sealLabel = "packterm/ledger/seal/v1\x00"

// kdfInputSize is the one-step KDF's input: counter, secret, label, block, index.
const kdfInputSize = 4 + codes.SecretSize + len(sealLabel) + 2 + 4

// pad is the ticket's 28-bit pad, from the one-step key derivation function of NIST SP
// 800-56C rev. 2 (§4.1, option 1, H = SHA-256): SHA-256(counter=1 ‖ Z ‖ FixedInfo) with
// the 80-bit validation secret as Z and, as FixedInfo, the label, the block and the
// ticket's index in the block (domain separation: one ticket's entry says nothing about
// another's). The input is 44 bytes, so one SHA-256 compression: HMAC-SHA256 would cost
// four (docs/ledger.md, "Why this KDF").
func pad(id codes.TicketID, secret *[codes.SecretSize]byte) uint32 {
	var in [kdfInputSize]byte
	binary.BigEndian.PutUint32(in[0:], 1)
	copy(in[4:], secret[:])
	m := in[4+codes.SecretSize:]
	copy(m, sealLabel)
	binary.BigEndian.PutUint16(m[len(sealLabel):], id.Block)
	binary.BigEndian.PutUint32(m[len(sealLabel)+2:], id.Index())
	h := sha256.Sum256(in[:])
	return binary.BigEndian.Uint32(h[:4]) & entryMask
}

// Seal returns the entry of ticket id with the given validation secret and tier (0 for a
// losing ticket, k for the k-th line of its game's prize table, 1-based, table order). It
// is a pure function of its arguments. It panics if tier > MaxTier, which no valid game
// definition allows (Write checks the definitions).
func Seal(id codes.TicketID, secret [codes.SecretSize]byte, tier uint8) Entry {
	if tier > MaxTier {
		panic(fmt.Sprintf("ledger: seal: tier %d above %d", tier, MaxTier))
	}
	return Entry((uint32(tier) << CheckBits) ^ pad(id, &secret))
}

// Open is the inverse of Seal: it returns the tier sealed in e for ticket id and secret,
// or ErrForged when the secret is not the one e was sealed with (with probability
// 1 − 2^-24 at least for any wrong secret).
func Open(e Entry, id codes.TicketID, secret [codes.SecretSize]byte) (uint8, error) {
	tier, ok := open(e, id, &secret)
	if !ok {
		return 0, fmt.Errorf("ledger: open entry of ticket %v: %w", id, ErrForged)
	}
	return tier, nil
}

func open(e Entry, id codes.TicketID, secret *[codes.SecretSize]byte) (uint8, bool) {
	v := (uint32(e) & entryMask) ^ pad(id, secret)
	return uint8(v >> CheckBits), v&checkMask == 0
}

// PackedSize is the number of bytes n packed entries take: 7 bytes per pair.
func PackedSize(n int) int { return (n + 1) / 2 * 7 }

// Entries holds the entries of a block packed as the file stores them: entries 2k and
// 2k+1 share bytes 7k..7k+6, big-endian, the even one in the upper 28 bits. Set and At
// on entries of different pairs may run concurrently (e.g. one goroutine per pack: a pack
// of 8 tickets is 28 whole bytes).
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
	p := buf[i/2*7 : i/2*7+7]
	if i%2 == 0 {
		return Entry(uint32(p[0])<<20 | uint32(p[1])<<12 | uint32(p[2])<<4 | uint32(p[3])>>4)
	}
	return Entry(uint32(p[3]&0x0f)<<24 | uint32(p[4])<<16 | uint32(p[5])<<8 | uint32(p[6]))
}

func setPacked(buf []byte, i int, v Entry) {
	p := buf[i/2*7 : i/2*7+7]
	x := uint32(v) & entryMask
	if i%2 == 0 {
		p[0], p[1], p[2] = byte(x>>20), byte(x>>12), byte(x>>4)
		p[3] = byte(x<<4) | p[3]&0x0f
		return
	}
	p[3] = p[3]&0xf0 | byte(x>>24)
	p[4], p[5], p[6] = byte(x>>16), byte(x>>8), byte(x)
}

// paddingZero reports whether the unused half of the last pair of n packed entries (odd
// n) is zero.
func paddingZero(buf []byte, n int) bool {
	if n%2 == 0 {
		return true
	}
	p := buf[len(buf)-7:]
	return p[3]&0x0f == 0 && p[4] == 0 && p[5] == 0 && p[6] == 0
}

// WrapEntries uses buf, n entries packed as the file stores them, without copying (e.g.
// a buffer the generator filled itself). len(buf) must be PackedSize(n).
func WrapEntries(buf []byte, n int) (*Entries, error) {
	if n < 0 || len(buf) != PackedSize(n) {
		return nil, fmt.Errorf("ledger: %d bytes for %d packed entries, want %d: %w", len(buf), n, PackedSize(max(n, 0)), ErrFormat)
	}
	return &Entries{n: n, buf: buf}, nil
}
