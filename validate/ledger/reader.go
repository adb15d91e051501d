package ledger

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"

	"github.com/packterm/pos/internal/regularfile"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
)

// Ledger is an open, verified ledger: every answer comes from a file whose signature,
// hash tree and entries were checked when it was opened. Lookups may run concurrently;
// Close waits for them and makes later ones fail with ErrClosed.
type Ledger struct {
	mu     sync.RWMutex
	data   []byte
	unmap  func() error
	fh     *fileHeader
	segs   *segments // the check of every entry read for a decision (segments.go)
	closed bool
}

// Result is what a valid validation code reveals.
type Result struct {
	Ticket codes.TicketID
	// Game is the ticket's game (its position in the pack) and its definition.
	Game *game.Game
	// Tier is 0 for a losing ticket, k for the k-th line of the game's prize table.
	Tier uint8
	// Lot is the amount the ticket wins (0 for a losing ticket).
	Lot game.Cents
}

// Winner reports whether the ticket wins.
func (r Result) Winner() bool { return r.Tier > 0 }

// OpenFile maps the ledger file at path and verifies it against the trust store: the
// format, the operator's signature over the header, the hash tree and every chunk of
// entries. Nothing is answered from a file that fails any check. It is for the installed
// ledger in the terminal's own directory (Install puts it there). The file can still be
// rewritten under the mapping by whoever is root on the terminal, so no answer is read
// straight from it: every lookup copies its entry's segment out of the mapping and checks
// it against the hashes kept in memory at open (ErrTampered), and an access to a
// truncated file returns ErrFault instead of crashing the process. Files from elsewhere
// (the command line) are read with ReadFile or VerifyFile instead.
func OpenFile(path string, trust *TrustStore) (*Ledger, error) {
	data, unmap, err := mapFile(path)
	if err != nil {
		return nil, fmt.Errorf("ledger: open: %w", err)
	}
	l, err := newMapped(data, trust)
	if err != nil {
		unmap()
		return nil, err
	}
	l.unmap = unmap
	return l, nil
}

func newMapped(data []byte, trust *TrustStore) (l *Ledger, err error) {
	defer catchFault(withFaults(), &err, "open")
	return newLedger(data, trust)
}

// ReadFile reads the ledger file at path with plain reads into memory (a private copy:
// no mapping, so a file changed or truncated meanwhile cannot crash the reader, it fails
// the checks) and verifies it as OpenFile does. It is for files given on the command line.
func ReadFile(path string, trust *TrustStore) (*Ledger, error) {
	data, err := regularfile.ReadFile(path, maxFileSize)
	if err != nil {
		return nil, fmt.Errorf("ledger: read: %w", err)
	}
	return newLedger(data, trust)
}

// Parse verifies a ledger held in memory, as OpenFile does a file. data must not change
// while the Ledger is in use.
func Parse(data []byte, trust *TrustStore) (*Ledger, error) {
	return newLedger(data, trust)
}

func newLedger(data []byte, trust *TrustStore) (*Ledger, error) {
	fh, err := parseHeader(data)
	if err != nil {
		return nil, err
	}
	if err := verifyBy(trust, fmt.Sprintf("block %d ledger", fh.Block), fh.keyID, fh.signed, fh.signature); err != nil {
		return nil, err
	}
	if err := fh.parseDefinition(); err != nil {
		return nil, err
	}
	segs := newSegments(fh)
	if err := verifyEntries(fh, data[fh.dataOff:], segs); err != nil {
		return nil, err
	}
	fh.signed, fh.signature, fh.definition = nil, nil, nil // no reference into data but the entries
	return &Ledger{data: data, fh: fh, segs: segs}, nil
}

// verifyEntries checks the signed root against the leaf table and every chunk against its
// leaf, on every core, filling segs from the bytes it hashed (segments.hashChunk).
func verifyEntries(fh *fileHeader, entries []byte, segs *segments) error {
	if rootHash(fh.leaves) != fh.root {
		return fmt.Errorf("ledger: block %d: leaf table does not hash to the root: %w", fh.Block, ErrHash)
	}
	n := fh.Entries()
	var (
		mu   sync.Mutex
		next int
		bad  = -1
		wg   sync.WaitGroup
		last []byte // the copy of the last pair, for the padding check
	)
	var fault error
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(fh.leaves)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			defer func() {
				if err != nil {
					mu.Lock()
					fault = err
					bad = 0
					mu.Unlock()
				}
			}()
			defer catchFault(withFaults(), &err, fmt.Sprintf("block %d: verify entries", fh.Block))
			for {
				mu.Lock()
				k := next
				next++
				stop := bad >= 0
				mu.Unlock()
				if stop || k >= len(fh.leaves) {
					return
				}
				leaf, tail := segs.hashChunk(k, chunkBytes(entries, n, fh.chunkEntries, k))
				mu.Lock()
				if leaf != fh.leaves[k] && (bad < 0 || k < bad) {
					bad = k
				}
				if k == len(fh.leaves)-1 {
					last = tail
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if fault != nil {
		return fault
	}
	if bad >= 0 {
		return fmt.Errorf("ledger: block %d: chunk %d (entries %d..): %w", fh.Block, bad, bad*fh.chunkEntries, ErrHash)
	}
	if n%2 == 1 && (len(last) != PairSize || !paddingZero(last, n)) {
		return fmt.Errorf("ledger: block %d: padding after the last entry is not zero: %w", fh.Block, ErrFormat)
	}
	return nil
}

// Header returns the ledger's header (share the Definition read-only).
func (l *Ledger) Header() Header { return l.fh.Header }

// KeyID is the id of the operator key that signed the ledger.
func (l *Ledger) KeyID() KeyID { return l.fh.keyID }

// Root is the hash-tree root over the entries.
func (l *Ledger) Root() [32]byte { return l.fh.root }

// Size is the file's size in bytes.
func (l *Ledger) Size() int { return len(l.data) }

// Entry returns the entry of the ticket with index i (0 ≤ i < Header().Entries()), read
// through the same check as Lookup (ErrTampered, ErrFault).
func (l *Ledger) Entry(i int) (e Entry, err error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	defer catchFault(withFaults(), &err, "entry")
	if l.closed {
		return Entry{}, fmt.Errorf("ledger: entry: %w", ErrClosed)
	}
	if i < 0 || i >= l.fh.Entries() {
		return Entry{}, fmt.Errorf("ledger: entry %d of %d: %w", i, l.fh.Entries(), ErrOutOfRange)
	}
	if e, err = l.segs.entry(l.fh, l.data[l.fh.dataOff:], i); err != nil {
		return Entry{}, fmt.Errorf("ledger: entry %d: %w", i, err)
	}
	return e, nil
}

// Lookup answers a validation code: the ticket, its game, tier and lot. It fails with
// ErrUnknownBlock when the code is for another block than the ledger's, ErrOutOfRange when
// its pack or position is not in the ledger, ErrForged when the secret is not the
// ticket's (probability of a false accept ≤ 2^-64 per try), ErrClosed after Close,
// ErrTampered when the entry's bytes no longer match the hash tree verified at open (the
// mapped file was rewritten in place: the entry is copied out of the mapping with its
// segment and checked on every lookup), ErrFault when the mapped file was truncated under
// the reader. Errors never quote the secret.
func (l *Ledger) Lookup(code codes.ValidationCode) (r Result, err error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	defer catchFault(withFaults(), &err, "lookup")
	if l.closed {
		return Result{}, fmt.Errorf("ledger: lookup: %w", ErrClosed)
	}
	id := code.ID()
	fh := l.fh
	if id.Block != fh.Block {
		return Result{}, fmt.Errorf("ledger: lookup %v: code for block %d, this ledger is block %d: %w", id, id.Block, fh.Block, ErrUnknownBlock)
	}
	tpp := fh.Definition.TicketsPerPack
	if id.Pack >= fh.Packs || id.Position < 1 || int(id.Position) > tpp {
		return Result{}, fmt.Errorf("ledger: lookup %v: ledger has packs 0..%d, positions 1..%d: %w", id, fh.Packs-1, tpp, ErrOutOfRange)
	}
	e, err := l.segs.entry(fh, l.data[fh.dataOff:], fh.Index(id))
	if err != nil {
		return Result{}, fmt.Errorf("ledger: lookup %v: %w", id, err)
	}
	tier, ok := open(e, id, &code.Secret)
	g := &fh.Definition.Games[id.Position-1]
	if !ok || int(tier) > len(g.Tiers) {
		return Result{}, fmt.Errorf("ledger: lookup %v: %w", id, ErrForged)
	}
	r = Result{Ticket: id, Game: g, Tier: tier}
	if tier > 0 {
		r.Lot = g.Tiers[tier-1].Amount
	}
	return r, nil
}

// Close unmaps the file. Lookups after Close fail with ErrClosed.
func (l *Ledger) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	l.data = nil
	if l.unmap != nil {
		if err := l.unmap(); err != nil {
			return fmt.Errorf("ledger: close: %w", err)
		}
	}
	return nil
}

// Info is what an untrusted reading of a ledger file's header tells (posctl ledger
// inspect): the fields, whatever the signature says.
type Info struct {
	Header
	KeyID        KeyID
	Root         [32]byte
	ChunkEntries int
	Chunks       int
	Size         int
	// Signature is nil when the signature verifies with the trust store given, else why not.
	Signature error
	// Hashes is nil when the hash tree and every entry chunk verify, else why not.
	Hashes error
}

// Inspect reads a ledger held in memory without trusting it, as InspectFile does a file.
func Inspect(data []byte, trust *TrustStore) (*Info, error) {
	return inspectStream(bytes.NewReader(data), int64(len(data)), trust, false)
}

// InspectFile reads a ledger file's header with plain reads, without trusting it, then
// checks the signature against trust (which may be nil: the signature is then reported
// unchecked with ErrNoTrustedKey) and streams the entries through the hash tree. It
// fails only when the file cannot be read or its header cannot be parsed; the signature
// and hash status are in the Info.
func InspectFile(path string, trust *TrustStore) (*Info, error) {
	return streamFile(path, trust, false)
}

// VerifyFile verifies a ledger file as OpenFile does, with plain reads and a streaming
// hash (no mapping, little memory), for files given on the command line: any failed
// check is an error.
func VerifyFile(path string, trust *TrustStore) (*Info, error) {
	return streamFile(path, trust, true)
}

func streamFile(path string, trust *TrustStore, strict bool) (*Info, error) {
	f, size, err := regularfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("ledger: read: %w", err)
	}
	defer f.Close()
	return inspectStream(f, size, trust, strict)
}
