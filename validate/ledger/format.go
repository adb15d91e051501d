package ledger

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
)

// File format constants (docs/ledger.md has the byte layout).
const (
	// Magic opens every ledger file.
	Magic = "PTLEDGER"
	// FormatVersion is the only ledger format version this package reads and writes.
	// Format 1 (28-bit entries, 24 check bits) is refused with ErrFormat1: its check
	// could be forged offline from a copied ledger.
	FormatVersion = 2
	// DefaultChunkEntries is the number of entries per hash-tree leaf the builder uses
	// (2,228,224 bytes of packed entries): 46 chunks for a full block.
	DefaultChunkEntries = 1 << 18

	fixedHeaderSize = 88
	signatureSize   = ed25519.SignatureSize
	maxDefinition   = 1 << 20 // bytes of definition JSON
	maxChunks       = 1 << 16
	maxHeaderSize   = fixedHeaderSize + maxDefinition + 32*maxChunks
	// maxFileSize bounds a ledger file: the largest header, its signature and the
	// entries of a whole block.
	maxFileSize = maxHeaderSize + signatureSize + (codes.PacksPerBlock*codes.TicketsPerPack+1)/2*PairSize
	leafLabel   = "PTLEDGER leaf\x00"
	rootLabel   = "PTLEDGER root\x00"
)

// Header is what a ledger says about itself; the signature covers all of it.
type Header struct {
	// Block is the block number (codes.MinBlock..codes.MaxBlock).
	Block uint16
	// Version is the monotonic ledger version: a terminal refuses to install a ledger
	// older than the one it has.
	Version uint64
	// Packs is the number of packs in the file (the règlement's block has 1,500,000; a
	// test block may have fewer). Entries = Packs × TicketsPerPack.
	Packs uint32
	// Definition is the game the tiers refer to; it is written as its JSON.
	Definition *game.Definition
}

// Entries is the number of entries (tickets) h describes.
func (h *Header) Entries() int { return int(h.Packs) * h.Definition.TicketsPerPack }

// Index is the index of ticket id's entry: pack·T + position − 1 for T tickets per pack
// (= id.Index() for the règlement's packs of 8).
func (h *Header) Index(id codes.TicketID) int {
	return int(id.Pack)*h.Definition.TicketsPerPack + int(id.Position) - 1
}

// check validates the header's fields against what the format can carry.
func (h *Header) check() error {
	if h.Block < codes.MinBlock || h.Block > codes.MaxBlock {
		return fmt.Errorf("block %d outside %d..%d", h.Block, codes.MinBlock, codes.MaxBlock)
	}
	if h.Packs == 0 || h.Packs > codes.PacksPerBlock {
		return fmt.Errorf("%d packs, want 1..%d", h.Packs, codes.PacksPerBlock)
	}
	d := h.Definition
	if d == nil {
		return fmt.Errorf("no game definition")
	}
	if d.TicketsPerPack < 1 || d.TicketsPerPack > codes.TicketsPerPack {
		return fmt.Errorf("%d tickets per pack, want 1..%d", d.TicketsPerPack, codes.TicketsPerPack)
	}
	if len(d.Games) != d.TicketsPerPack {
		return fmt.Errorf("%d games for %d tickets per pack (ticket k is game k)", len(d.Games), d.TicketsPerPack)
	}
	for i, g := range d.Games {
		if g.Number != i+1 {
			return fmt.Errorf("game %d numbered %d", i+1, g.Number)
		}
		if len(g.Tiers) > MaxTier {
			return fmt.Errorf("game %d has %d prize lines, an entry holds %d", g.Number, len(g.Tiers), MaxTier)
		}
	}
	return nil
}

// fileHeader is a parsed header with the layout facts the reader needs.
type fileHeader struct {
	Header
	keyID        KeyID
	root         [32]byte
	chunkEntries int
	leaves       [][32]byte
	signed       []byte // bytes [0, H): what the signature covers
	signature    []byte
	dataOff      int
	definition   []byte // the JSON as stored
	tpp          int    // tickets per pack as the binary header says
}

func chunkCount(n, chunk int) int { return (n + chunk - 1) / chunk }

// leafHash hashes chunk k of the packed entries.
func leafHash(k int, chunk []byte) [32]byte {
	h := sha256.New()
	var kb [4]byte
	binary.BigEndian.PutUint32(kb[:], uint32(k))
	h.Write([]byte(leafLabel))
	h.Write(kb[:])
	h.Write(chunk)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// rootHash hashes the leaf table.
func rootHash(leaves [][32]byte) [32]byte {
	h := sha256.New()
	var kb [4]byte
	binary.BigEndian.PutUint32(kb[:], uint32(len(leaves)))
	h.Write([]byte(rootLabel))
	h.Write(kb[:])
	for _, l := range leaves {
		h.Write(l[:])
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// chunkBytes returns the packed bytes of chunk k of n entries.
func chunkBytes(data []byte, n, chunk, k int) []byte {
	start := k * chunk / 2 * PairSize
	end := PackedSize(min((k+1)*chunk, n))
	return data[start:end]
}

// hashChunks computes the leaf hashes of n packed entries, on every core.
func hashChunks(data []byte, n, chunk int) [][32]byte {
	leaves := make([][32]byte, chunkCount(n, chunk))
	var next sync.Mutex
	k := 0
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(leaves)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				next.Lock()
				i := k
				k++
				next.Unlock()
				if i >= len(leaves) {
					return
				}
				leaves[i] = leafHash(i, chunkBytes(data, n, chunk, i))
			}
		}()
	}
	wg.Wait()
	return leaves
}

// encodeHeader lays out the signed part of the header (docs/ledger.md).
func encodeHeader(h *Header, def []byte, id KeyID, chunk int, leaves [][32]byte, root [32]byte) []byte {
	n := h.Entries()
	b := make([]byte, fixedHeaderSize, fixedHeaderSize+len(def)+32*len(leaves))
	copy(b[0:8], Magic)
	binary.BigEndian.PutUint16(b[8:], FormatVersion)
	binary.BigEndian.PutUint16(b[10:], h.Block)
	binary.BigEndian.PutUint64(b[12:], h.Version)
	binary.BigEndian.PutUint32(b[20:], uint32(fixedHeaderSize+len(def)+32*len(leaves)))
	binary.BigEndian.PutUint32(b[24:], h.Packs)
	b[28] = byte(h.Definition.TicketsPerPack)
	b[29] = EntryBits
	b[30] = TierBits
	b[31] = 0
	binary.BigEndian.PutUint32(b[32:], uint32(n))
	binary.BigEndian.PutUint32(b[36:], uint32(chunk))
	binary.BigEndian.PutUint32(b[40:], uint32(len(leaves)))
	copy(b[44:52], id[:])
	copy(b[52:84], root[:])
	binary.BigEndian.PutUint32(b[84:], uint32(len(def)))
	b = append(b, def...)
	for _, l := range leaves {
		b = append(b, l[:]...)
	}
	return b
}

// parseHeader reads the binary header of a ledger file held whole in data without
// trusting it (parseHeaderAt).
func parseHeader(data []byte) (*fileHeader, error) { return parseHeaderAt(data, int64(len(data))) }

// headerLength reads the first fixedHeaderSize bytes of a ledger file: magic, format
// version, and the length H of the signed header (the signature follows it).
func headerLength(data []byte) (int64, error) {
	if len(data) < 10 {
		return 0, fmt.Errorf("ledger: header: %d bytes, too short for a ledger: %w", len(data), ErrFormat)
	}
	if string(data[:8]) != Magic {
		return 0, fmt.Errorf("ledger: header: no %q magic: not a ledger file: %w", Magic, ErrFormat)
	}
	switch v := binary.BigEndian.Uint16(data[8:]); v {
	case FormatVersion:
	case 1:
		return 0, fmt.Errorf("ledger: header: format version 1 is refused (its 24-bit checks can be forged offline from a copy of the file): %w", ErrFormat1)
	default:
		return 0, fmt.Errorf("ledger: header: format version %d, this terminal reads %d: %w", v, FormatVersion, ErrFormatVersion)
	}
	if len(data) < fixedHeaderSize {
		return 0, fmt.Errorf("ledger: header: %d bytes, too short for a ledger header: %w", len(data), ErrFormat)
	}
	return int64(binary.BigEndian.Uint32(data[20:])), nil
}

// parseHeaderAt reads the binary header of a ledger file of size bytes whose first bytes
// are in data (at least the header and its signature) without trusting it: it checks the
// layout (magic, format version, lengths, counts) and that the file has exactly the size
// the header announces, but neither the signature, the definition (parseDefinition) nor
// the hashes. The header's slices point into data.
func parseHeaderAt(data []byte, size int64) (*fileHeader, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("ledger: header: %s: %w", fmt.Sprintf(format, a...), ErrFormat)
	}
	hlen, err := headerLength(data)
	if err != nil {
		return nil, err
	}
	fh := &fileHeader{}
	fh.Block = binary.BigEndian.Uint16(data[10:])
	fh.Version = binary.BigEndian.Uint64(data[12:])
	fh.Packs = binary.BigEndian.Uint32(data[24:])
	tpp := int(data[28])
	if data[29] != EntryBits || data[30] != TierBits || data[31] != 0 {
		return nil, bad("entry layout %d/%d bits (reserved %d), want %d/%d", data[29], data[30], data[31], EntryBits, TierBits)
	}
	n := int64(binary.BigEndian.Uint32(data[32:]))
	chunk := int64(binary.BigEndian.Uint32(data[36:]))
	nchunks := int64(binary.BigEndian.Uint32(data[40:]))
	copy(fh.keyID[:], data[44:52])
	copy(fh.root[:], data[52:84])
	deflen := int64(binary.BigEndian.Uint32(data[84:]))
	switch {
	case fh.Block < codes.MinBlock || fh.Block > codes.MaxBlock:
		return nil, bad("block %d outside %d..%d", fh.Block, codes.MinBlock, codes.MaxBlock)
	case fh.Packs == 0 || fh.Packs > codes.PacksPerBlock:
		return nil, bad("%d packs, want 1..%d", fh.Packs, codes.PacksPerBlock)
	case tpp < 1 || tpp > codes.TicketsPerPack:
		return nil, bad("%d tickets per pack", tpp)
	case n != int64(fh.Packs)*int64(tpp):
		return nil, bad("%d entries for %d packs of %d tickets", n, fh.Packs, tpp)
	case chunk < 2 || chunk%2 != 0 || chunk > 1<<28:
		return nil, bad("chunk of %d entries (want even, 2..2^28)", chunk)
	case nchunks != int64(chunkCount(int(n), int(chunk))) || nchunks > maxChunks:
		return nil, bad("%d chunks for %d entries of %d per chunk", nchunks, n, chunk)
	case deflen > maxDefinition:
		return nil, bad("definition of %d bytes (at most %d)", deflen, maxDefinition)
	case hlen != fixedHeaderSize+deflen+32*nchunks:
		return nil, bad("header length %d, fields say %d", hlen, fixedHeaderSize+deflen+32*nchunks)
	}
	want := hlen + signatureSize + int64(PackedSize(int(n)))
	if size != want {
		return nil, bad("file is %d bytes, its header says %d (truncated or padded)", size, want)
	}
	if int64(len(data)) < hlen+signatureSize {
		return nil, bad("%d bytes read, the header and signature take %d", len(data), hlen+signatureSize)
	}
	fh.chunkEntries = int(chunk)
	fh.definition = data[fixedHeaderSize : fixedHeaderSize+deflen]
	for k := int64(0); k < nchunks; k++ {
		var l [32]byte
		copy(l[:], data[fixedHeaderSize+deflen+32*k:])
		fh.leaves = append(fh.leaves, l)
	}
	fh.signed = data[:hlen]
	fh.signature = data[hlen : hlen+signatureSize]
	fh.dataOff = int(hlen + signatureSize)
	fh.tpp = tpp
	return fh, nil
}

// parseDefinition reads the header's game definition (after the signature was checked,
// on the terminal's path: the JSON parser then only sees operator-signed input).
func (fh *fileHeader) parseDefinition() error {
	d, err := game.ParseJSON(fh.definition)
	if err != nil {
		return fmt.Errorf("ledger: header: game definition: %v: %w", err, ErrFormat)
	}
	fh.Definition = d
	if d.TicketsPerPack != fh.tpp {
		return fmt.Errorf("ledger: header: %d tickets per pack, the definition says %d: %w", fh.tpp, d.TicketsPerPack, ErrFormat)
	}
	if err := fh.Header.check(); err != nil {
		return fmt.Errorf("ledger: header: %v: %w", err, ErrFormat)
	}
	return nil
}

// marshalDefinition is the definition as a ledger stores it.
func marshalDefinition(d *game.Definition) ([]byte, error) {
	return json.Marshal(d)
}
