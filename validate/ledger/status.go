package ledger

import (
	"cmp"
	"crypto/ed25519"
	"encoding/binary"
	"fmt"
	"io"
	"slices"

	"github.com/packterm/pos/internal/atomicfile"
	"github.com/packterm/pos/internal/regularfile"
	"github.com/packterm/pos/validate/codes"
)

// Pack status list constants (docs/ledger.md, "Pack status list").
const (
	// StatusMagic opens every pack status list.
	StatusMagic = "PTSTATUS"
	// StatusFormatVersion is the only status list format version this package knows.
	StatusFormatVersion = 1
	// StatusFileName is the name of the installed list in a terminal's directory.
	StatusFileName = "pack-status.list"

	statusHeaderSize = 44
	statusRecordSize = 11
	maxStatusRecords = 1 << 20
	maxStatusSize    = statusHeaderSize + statusRecordSize*maxStatusRecords + signatureSize
)

// PackState is what a status list says of a pack.
type PackState uint8

const (
	// PackUnlisted: not delivered to this retailer, not void: not sellable here.
	PackUnlisted PackState = iota
	// PackDelivered: delivered to this retailer, sellable here.
	PackDelivered
	// PackVoid: withdrawn by the operator; its tickets are refused everywhere.
	PackVoid
	// PackStolen: reported stolen; its tickets are refused everywhere.
	PackStolen
)

// String names the state as posctl prints it.
func (s PackState) String() string {
	switch s {
	case PackUnlisted:
		return "unlisted"
	case PackDelivered:
		return "delivered"
	case PackVoid:
		return "void"
	case PackStolen:
		return "stolen"
	}
	return fmt.Sprintf("state(%d)", uint8(s))
}

// PackRange is Count consecutive packs of a block, from First, in one state (delivered,
// void or stolen). A void or stolen range may cover delivered packs: it wins.
type PackRange struct {
	Block uint16
	First uint32
	Count uint32
	State PackState
}

// StatusList is the signed pack status list of one retailer.
type StatusList struct {
	// Retailer is the retailer the list is for; a terminal keeps to one.
	Retailer uint32
	// Version is monotonic: a terminal refuses a list older than the one it has.
	Version uint64
	// Issued is when the operator issued the list, in Unix seconds (informative).
	Issued int64
	// Ranges in any order on input; sorted by state, block and first pack once parsed.
	Ranges []PackRange

	delivered, refused []PackRange // sorted by (block, first), non-overlapping
	keyID              KeyID
}

// KeyID is the id of the key that signed the list (set by ParseStatus).
func (s *StatusList) KeyID() KeyID { return s.keyID }

// State tells what the list says of a pack: void or stolen win over delivered.
func (s *StatusList) State(block uint16, pack uint32) PackState {
	if r, ok := findRange(s.refused, block, pack); ok {
		return r.State
	}
	if _, ok := findRange(s.delivered, block, pack); ok {
		return PackDelivered
	}
	return PackUnlisted
}

// Sellable reports whether the pack may be sold here: delivered, and neither void nor stolen.
func (s *StatusList) Sellable(block uint16, pack uint32) bool {
	return s.State(block, pack) == PackDelivered
}

// Void reports whether the pack is void or stolen: its tickets are refused.
func (s *StatusList) Void(block uint16, pack uint32) bool {
	st := s.State(block, pack)
	return st == PackVoid || st == PackStolen
}

func findRange(rs []PackRange, block uint16, pack uint32) (PackRange, bool) {
	// The last range that starts at or before (block, pack).
	i, _ := slices.BinarySearchFunc(rs, PackRange{Block: block, First: pack}, func(r, t PackRange) int {
		if c := cmp.Compare(r.Block, t.Block); c != 0 {
			return c
		}
		return cmp.Compare(r.First, t.First+1) // r.First ≤ pack sorts before
	})
	if i == 0 {
		return PackRange{}, false
	}
	r := rs[i-1]
	if r.Block == block && pack >= r.First && uint64(pack) < uint64(r.First)+uint64(r.Count) {
		return r, true
	}
	return PackRange{}, false
}

// index sorts the ranges into canonical order and checks them: known states, blocks and
// packs in range, no empty range, no overlap between ranges of the delivered class nor
// between ranges of the refused (void, stolen) class.
func (s *StatusList) index() error {
	rs := slices.Clone(s.Ranges)
	slices.SortFunc(rs, compareRanges)
	s.delivered, s.refused = nil, nil
	for _, r := range rs {
		switch {
		case r.State < PackDelivered || r.State > PackStolen:
			return fmt.Errorf("range %d/%d+%d: unknown state %d", r.Block, r.First, r.Count, r.State)
		case r.Block < codes.MinBlock || r.Block > codes.MaxBlock:
			return fmt.Errorf("range %d/%d+%d: block outside %d..%d", r.Block, r.First, r.Count, codes.MinBlock, codes.MaxBlock)
		case r.Count == 0:
			return fmt.Errorf("range %d/%d+0: empty", r.Block, r.First)
		case uint64(r.First)+uint64(r.Count) > codes.PacksPerBlock:
			return fmt.Errorf("range %d/%d+%d: past the block's %d packs", r.Block, r.First, r.Count, codes.PacksPerBlock)
		}
		class := &s.refused
		if r.State == PackDelivered {
			class = &s.delivered
		}
		if n := len(*class); n > 0 {
			p := (*class)[n-1]
			if p.Block == r.Block && uint64(p.First)+uint64(p.Count) > uint64(r.First) {
				return fmt.Errorf("ranges %d/%d+%d (%v) and %d/%d+%d (%v) overlap", p.Block, p.First, p.Count, p.State, r.Block, r.First, r.Count, r.State)
			}
		}
		*class = append(*class, r)
	}
	s.Ranges = rs
	return nil
}

// compareRanges is the canonical order: delivered first, then refused; by block, first pack.
func compareRanges(a, b PackRange) int {
	ca, cb := a.State == PackDelivered, b.State == PackDelivered
	if ca != cb {
		if ca {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(a.Block, b.Block); c != 0 {
		return c
	}
	if c := cmp.Compare(a.First, b.First); c != 0 {
		return c
	}
	return cmp.Compare(a.State, b.State)
}

// MarshalStatus returns the signed file of s (docs/ledger.md). The ranges are checked
// and written in canonical order.
func MarshalStatus(s *StatusList, key ed25519.PrivateKey) ([]byte, error) {
	if len(key) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("ledger: status list: no operator private key: %w", ErrKeyFile)
	}
	c := *s
	if err := c.index(); err != nil {
		return nil, fmt.Errorf("ledger: status list: %v: %w", err, ErrFormat)
	}
	if len(c.Ranges) > maxStatusRecords {
		return nil, fmt.Errorf("ledger: status list: %d ranges (at most %d): %w", len(c.Ranges), maxStatusRecords, ErrFormat)
	}
	b := make([]byte, statusHeaderSize, statusHeaderSize+statusRecordSize*len(c.Ranges)+signatureSize)
	copy(b, StatusMagic)
	binary.BigEndian.PutUint16(b[8:], StatusFormatVersion)
	binary.BigEndian.PutUint64(b[12:], c.Version)
	binary.BigEndian.PutUint32(b[20:], c.Retailer)
	binary.BigEndian.PutUint64(b[24:], uint64(c.Issued))
	id := IDOf(key.Public().(ed25519.PublicKey))
	copy(b[32:40], id[:])
	binary.BigEndian.PutUint32(b[40:], uint32(len(c.Ranges)))
	for _, r := range c.Ranges {
		var rec [statusRecordSize]byte
		binary.BigEndian.PutUint16(rec[0:], r.Block)
		rec[2] = byte(r.State)
		binary.BigEndian.PutUint32(rec[3:], r.First)
		binary.BigEndian.PutUint32(rec[7:], r.Count)
		b = append(b, rec[:]...)
	}
	return append(b, ed25519.Sign(key, b)...), nil
}

// WriteStatus writes the signed list to path atomically (temporary file, fsync, rename).
func WriteStatus(path string, s *StatusList, key ed25519.PrivateKey) error {
	b, err := MarshalStatus(s, key)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, 0o644, func(w io.Writer) error { _, err := w.Write(b); return err }, nil)
}

// statusHead is the untrusted reading of a list's header.
type statusHead struct {
	version  uint64
	retailer uint32
	issued   int64
	keyID    KeyID
	count    int
}

func parseStatusHead(data []byte) (statusHead, error) {
	var h statusHead
	if len(data) < 10 {
		return h, fmt.Errorf("ledger: status list: %d bytes, too short: %w", len(data), ErrFormat)
	}
	if string(data[:8]) != StatusMagic {
		return h, fmt.Errorf("ledger: status list: no %q magic: not a pack status list: %w", StatusMagic, ErrFormat)
	}
	if v := binary.BigEndian.Uint16(data[8:]); v != StatusFormatVersion {
		return h, fmt.Errorf("ledger: status list: format version %d, this terminal reads %d: %w", v, StatusFormatVersion, ErrFormatVersion)
	}
	if len(data) < statusHeaderSize {
		return h, fmt.Errorf("ledger: status list: %d bytes, too short for its header: %w", len(data), ErrFormat)
	}
	if data[10] != 0 || data[11] != 0 {
		return h, fmt.Errorf("ledger: status list: reserved bytes not zero: %w", ErrFormat)
	}
	h.version = binary.BigEndian.Uint64(data[12:])
	h.retailer = binary.BigEndian.Uint32(data[20:])
	h.issued = int64(binary.BigEndian.Uint64(data[24:]))
	copy(h.keyID[:], data[32:40])
	n := int64(binary.BigEndian.Uint32(data[40:]))
	if n > maxStatusRecords {
		return h, fmt.Errorf("ledger: status list: %d ranges (at most %d): %w", n, maxStatusRecords, ErrFormat)
	}
	if want := statusHeaderSize + statusRecordSize*n + signatureSize; int64(len(data)) != want {
		return h, fmt.Errorf("ledger: status list: %d bytes, its header says %d (truncated or padded): %w", len(data), want, ErrFormat)
	}
	h.count = int(n)
	return h, nil
}

// ParseStatus verifies a signed pack status list against the trust store and reads it.
// The ranges must be in canonical order (as MarshalStatus writes them).
func ParseStatus(data []byte, trust *TrustStore) (*StatusList, error) {
	h, err := parseStatusHead(data)
	if err != nil {
		return nil, err
	}
	body := len(data) - signatureSize
	if err := verifyBy(trust, fmt.Sprintf("status list of retailer %d", h.retailer), h.keyID, data[:body], data[body:]); err != nil {
		return nil, err
	}
	return decodeStatus(data, h)
}

// InspectStatus reads a status list without trusting it, then checks its signature
// against trust (which may be nil): sigErr is nil when the signature verifies. It fails
// only when the list cannot be read.
func InspectStatus(data []byte, trust *TrustStore) (s *StatusList, sigErr error, err error) {
	h, err := parseStatusHead(data)
	if err != nil {
		return nil, nil, err
	}
	s, err = decodeStatus(data, h)
	if err != nil {
		return nil, nil, err
	}
	body := len(data) - signatureSize
	return s, verifyBy(trust, fmt.Sprintf("status list of retailer %d", h.retailer), h.keyID, data[:body], data[body:]), nil
}

// decodeStatus reads the records of a list whose header h was parsed.
func decodeStatus(data []byte, h statusHead) (*StatusList, error) {
	s := &StatusList{Retailer: h.retailer, Version: h.version, Issued: h.issued, keyID: h.keyID}
	s.Ranges = make([]PackRange, h.count)
	for i := range s.Ranges {
		rec := data[statusHeaderSize+statusRecordSize*i:]
		s.Ranges[i] = PackRange{
			Block: binary.BigEndian.Uint16(rec[0:]),
			State: PackState(rec[2]),
			First: binary.BigEndian.Uint32(rec[3:]),
			Count: binary.BigEndian.Uint32(rec[7:]),
		}
	}
	in := slices.Clone(s.Ranges)
	if err := s.index(); err != nil {
		return nil, fmt.Errorf("ledger: status list: %v: %w", err, ErrFormat)
	}
	if !slices.Equal(in, s.Ranges) {
		return nil, fmt.Errorf("ledger: status list: ranges not in canonical order: %w", ErrFormat)
	}
	return s, nil
}

// LoadStatus reads the status list at path (a regular file: anything else is refused
// before it is read, ErrNotRegular) into memory and verifies that copy.
func LoadStatus(path string, trust *TrustStore) (*StatusList, error) {
	data, err := readStatusFile(path)
	if err != nil {
		return nil, err
	}
	return ParseStatus(data, trust)
}

// InspectStatusFile reads the status list at path and inspects it (InspectStatus).
func InspectStatusFile(path string, trust *TrustStore) (s *StatusList, sigErr error, err error) {
	data, err := readStatusFile(path)
	if err != nil {
		return nil, nil, err
	}
	return InspectStatus(data, trust)
}

func readStatusFile(path string) ([]byte, error) {
	data, err := regularfile.ReadFile(path, maxStatusSize)
	if err != nil {
		return nil, fmt.Errorf("ledger: status list: %w", err)
	}
	return data, nil
}
