package journal

import (
	"crypto/sha256"
	"encoding/binary"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/packterm/pos/validate/codes"
)

// Record encoding versions: the byte that starts every record encoding.
const (
	// RecordVersion (2) is what the journal writes: the version 1 layout followed by the
	// device key's id and its signature of the record's hash.
	RecordVersion = 2
	// RecordVersionUnsigned (1) is the layout written before every record was signed: it
	// is still read (journals kept from then), never written.
	RecordVersionUnsigned = 1
)

// hashDomain separates record hashes from any other SHA-256 use.
const hashDomain = "packterm journal record v1\x00"

// appendBody appends the canonical encoding of r without its trailing hash (docs/journal.md,
// "Record format"): version, kind, terminal, seq, boot, time (Unix ns and zone offset),
// ticket identity, game, amount, receipts, code, reason, detail, prev.
func appendBody(b []byte, r *Record) []byte {
	b = append(b, r.version(), byte(r.Kind))
	b = appendString(b, r.Terminal)
	b = binary.BigEndian.AppendUint64(b, r.Seq)
	b = binary.BigEndian.AppendUint64(b, r.Boot)
	_, off := r.Time.Zone()
	b = binary.BigEndian.AppendUint64(b, uint64(r.Time.UnixNano()))
	b = binary.BigEndian.AppendUint32(b, uint32(int32(off)))
	b = binary.BigEndian.AppendUint16(b, r.Ticket.Block)
	b = binary.BigEndian.AppendUint32(b, r.Ticket.Pack)
	b = append(b, r.Ticket.Position, byte(r.Game))
	b = binary.BigEndian.AppendUint64(b, uint64(r.Amount))
	b = binary.AppendUvarint(b, uint64(len(r.Receipts)))
	for _, s := range r.Receipts {
		b = appendString(b, s)
	}
	b = appendString(b, r.CodeText())
	b = appendString(b, r.Reason)
	b = appendString(b, r.Detail)
	return append(b, r.Prev[:]...)
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// recordHash is SHA-256 over the domain and the body.
func recordHash(body []byte) [32]byte {
	h := sha256.New()
	h.Write([]byte(hashDomain))
	h.Write(body)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// AppendRecord appends r's canonical encoding: body, then its hash as stored in r.Hash,
// then (version 2) the key id and the signature as stored in r.Key and r.Sig. This is
// what the journal stores and what the fleet publishes: the signature travels with it.
func AppendRecord(b []byte, r *Record) []byte {
	b = appendBody(b, r)
	b = append(b, r.Hash[:]...)
	if r.version() != RecordVersionUnsigned {
		b = append(b, r.Key[:]...)
		b = append(b, r.Sig[:]...)
	}
	return b
}

// seal computes r.Hash and returns the full encoding, with r.Key and r.Sig as they are
// (sign sets them).
func seal(r *Record) []byte {
	b := appendBody(make([]byte, 0, 160+sigTrailer), r)
	r.Hash = recordHash(b)
	return AppendRecord(b[:0], r)
}

// DecodeRecord decodes and checks one record encoding: version, every field's range, the
// rules of its kind (a code on a payout only), canonical form (re-encoding gives the same
// bytes) and its own hash. It never panics; on error r is the zero Record.
func DecodeRecord(b []byte) (Record, error) {
	r, body, err := decodeFields(b, true)
	if err != nil {
		return Record{}, err
	}
	// The signature is not checked here (it needs the device key): walkChain and
	// Record.VerifySignature check it.
	if recordHash(body) != r.Hash {
		return Record{}, badFormat("record %d: hash does not match its content", r.Seq)
	}
	// Canonical by construction: fixed-width fields, minimal uvarints (reader.uvarint),
	// nothing after the hash; FuzzDecodeRecord checks that it re-encodes to its input.
	return r, nil
}

// decodeFast decodes a stored record for an index lookup: its layout only, without the
// field rules, the code's parse or the hash (Open verified the chain from the last
// checkpoint; Verify checks all).
func decodeFast(b []byte) (Record, error) {
	r, _, err := decodeFields(b, false)
	return r, err
}

type reader struct {
	b   []byte
	err error
}

func (d *reader) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || len(d.b) < n {
		d.err = badFormat("truncated")
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *reader) u8() byte {
	if v := d.take(1); v != nil {
		return v[0]
	}
	return 0
}
func (d *reader) u16() uint16 {
	if v := d.take(2); v != nil {
		return binary.BigEndian.Uint16(v)
	}
	return 0
}
func (d *reader) u32() uint32 {
	if v := d.take(4); v != nil {
		return binary.BigEndian.Uint32(v)
	}
	return 0
}
func (d *reader) u64() uint64 {
	if v := d.take(8); v != nil {
		return binary.BigEndian.Uint64(v)
	}
	return 0
}

func (d *reader) uvarint(max uint64) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 || n != uvarintLen(v) {
		d.err = badFormat("bad length")
		return 0
	}
	d.b = d.b[n:]
	if v > max {
		d.err = badFormat("length %d over %d", v, max)
		return 0
	}
	return v
}

// uvarintLen is the length of v's minimal uvarint encoding.
func uvarintLen(v uint64) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}

func (d *reader) str(max int) string {
	n := d.uvarint(uint64(max))
	return string(d.take(int(n)))
}

func decodeFields(b []byte, check bool) (Record, []byte, error) {
	d := reader{b: b}
	var r Record
	if r.Version = d.u8(); d.err == nil && r.Version != RecordVersion && r.Version != RecordVersionUnsigned {
		return Record{}, nil, badFormat("record version %d, want %d (or %d)", r.Version, RecordVersion, RecordVersionUnsigned)
	}
	r.Kind = Kind(d.u8())
	r.Terminal = d.str(MaxTerminalLen)
	r.Seq = d.u64()
	r.Boot = d.u64()
	ns := int64(d.u64())
	off := int32(d.u32())
	r.Ticket.Block = d.u16()
	r.Ticket.Pack = d.u32()
	r.Ticket.Position = d.u8()
	r.Game = int(d.u8())
	r.Amount = int64(d.u64())
	if n := d.uvarint(MaxReceipts); n > 0 {
		r.Receipts = make([]string, n)
		for i := range r.Receipts {
			r.Receipts[i] = d.str(MaxReceiptLen)
		}
	}
	code := d.str(MaxCodeLen)
	r.Reason = d.str(MaxReasonLen)
	r.Detail = d.str(MaxDetailLen)
	copy(r.Prev[:], d.take(32))
	bodyLen := len(b) - len(d.b)
	copy(r.Hash[:], d.take(32))
	if r.Version == RecordVersion {
		copy(r.Key[:], d.take(len(r.Key)))
		copy(r.Sig[:], d.take(len(r.Sig)))
	}
	if d.err != nil {
		return Record{}, nil, d.err
	}
	if len(d.b) != 0 {
		return Record{}, nil, badFormat("%d bytes after the record", len(d.b))
	}
	if off < -18*3600 || off > 18*3600 {
		return Record{}, nil, badFormat("zone offset %d s out of range", off)
	}
	r.Time = time.Unix(0, ns).In(zone(int(off)))
	var err error
	if r.Code, err = decodeCode(code); err != nil {
		return Record{}, nil, err
	}
	if !check {
		return r, nil, nil
	}
	if err := checkRecord(&r); err != nil {
		return Record{}, nil, badFormat("%v", err)
	}
	return r, b[:bodyLen], nil
}

// decodeCode reads a record's code field: empty (no code) or a validation code's
// canonical text (anything else would not re-encode to the same bytes).
func decodeCode(text string) (codes.ValidationCode, error) {
	if text == "" {
		return codes.ValidationCode{}, nil
	}
	c, err := codes.ParseValidation(text)
	if err != nil {
		return codes.ValidationCode{}, badFormat("validation code: %v", err)
	}
	if c.String() != text {
		return codes.ValidationCode{}, badFormat("validation code not in canonical form")
	}
	return c, nil
}

// zones caches the fixed zones of whole quarter-hour offsets (every zone in use today).
var zones [2*72 + 1]atomic.Pointer[time.Location]

// zone returns a fixed zone for a UTC offset in seconds (UTC itself for 0).
func zone(off int) *time.Location {
	if off == 0 {
		return time.UTC
	}
	if off%900 != 0 || off < -72*900 || off > 72*900 {
		return time.FixedZone("", off)
	}
	p := &zones[off/900+72]
	if l := p.Load(); l != nil {
		return l
	}
	p.CompareAndSwap(nil, time.FixedZone("", off))
	return p.Load()
}

// checkRecord checks the fields of a record (or of an entry about to become one) against
// the rules of its kind. Errors wrap ErrInvalidEntry.
func checkRecord(r *Record) error {
	if !r.Kind.Valid() {
		return invalid("unknown kind %d", r.Kind)
	}
	if err := checkTerminal(r.Terminal); err != nil {
		return err
	}
	if r.Seq == 0 {
		return invalid("sequence number 0")
	}
	if r.Amount < 0 || r.Amount > MaxAmount {
		return invalid("%s: amount %d cents out of range", r.Kind, r.Amount)
	}
	if r.Game < 0 || r.Game > codes.TicketsPerPack {
		return invalid("%s: game %d not in 0..%d", r.Kind, r.Game, codes.TicketsPerPack)
	}
	if r.HasCode() && r.Kind != KindPayout {
		return invalid("%s: a validation code is recorded on payouts only", r.Kind)
	}
	if err := checkTicket(&r.Entry); err != nil {
		return err
	}
	if len(r.Receipts) > MaxReceipts {
		return invalid("%d receipts, at most %d", len(r.Receipts), MaxReceipts)
	}
	for _, s := range r.Receipts {
		if s == "" || len(s) > MaxReceiptLen || !printableASCII(s) {
			return invalid("receipt id %.20q: want 1..%d printable ASCII characters", s, MaxReceiptLen)
		}
	}
	if len(r.Reason) > MaxReasonLen || !printableASCII(r.Reason) {
		return invalid("reason: want at most %d printable ASCII characters", MaxReasonLen)
	}
	if len(r.Detail) > MaxDetailLen || !cleanText(r.Detail) {
		return invalid("detail: want at most %d bytes of UTF-8 text without control characters", MaxDetailLen)
	}
	if r.Seq == 1 && r.Prev != ([32]byte{}) {
		return invalid("record 1 has a previous hash")
	}
	return nil
}

// checkTicket applies the kind's rules on the ticket identity, game and code.
func checkTicket(e *Entry) error {
	switch e.Kind {
	case KindSale:
		if e.Ticket.Position != 0 {
			return invalid("sale: a pack is sold whole (position 0), got position %d", e.Ticket.Position)
		}
		if err := (codes.TicketID{Block: e.Ticket.Block, Pack: e.Ticket.Pack, Position: 1}).Validate(); err != nil {
			return invalid("sale: pack: %v", err)
		}
		if e.Game != 0 {
			return invalid("sale: game %d on a pack", e.Game)
		}
	case KindPayout, KindClaim:
		if err := e.Ticket.Validate(); err != nil {
			return invalid("%s: ticket: %v", e.Kind, err)
		}
		if e.Game != int(e.Ticket.Game()) {
			return invalid("%s: game %d but ticket position %d", e.Kind, e.Game, e.Ticket.Position)
		}
		if e.Amount <= 0 {
			return invalid("%s: amount must be positive", e.Kind)
		}
		if e.Kind == KindPayout {
			if err := e.Code.Validate(); err != nil {
				return invalid("payout: validation code: %v", err)
			}
			if e.Code.ID() != e.Ticket {
				return invalid("payout: validation code is for ticket %v, not %v", e.Code.ID(), e.Ticket)
			}
		}
	default:
		if e.hasTicket() {
			if e.Ticket.Position == 0 {
				if err := (codes.TicketID{Block: e.Ticket.Block, Pack: e.Ticket.Pack, Position: 1}).Validate(); err != nil {
					return invalid("%s: pack: %v", e.Kind, err)
				}
			} else if err := e.Ticket.Validate(); err != nil {
				return invalid("%s: ticket: %v", e.Kind, err)
			}
		}
	}
	return nil
}

func checkTerminal(s string) error {
	if s == "" || len(s) > MaxTerminalLen {
		return invalid("terminal id: want 1..%d characters", MaxTerminalLen)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return invalid("terminal id %.20q: letters, digits, '-', '_' and '.' only", s)
		}
	}
	return nil
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

func cleanText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, c := range s {
		if c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) {
			return false
		}
	}
	return true
}
