package ledger

import (
	"fmt"
	"runtime"
	"sync"

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

// OpenFile maps the ledger file at path and verifies it against the trust store: the format,
// the operator's signature over the header, the hash tree and every chunk of entries.
// Nothing is answered from a file that fails any check.
func OpenFile(path string, trust *TrustStore) (*Ledger, error) {
	data, unmap, err := mapFile(path)
	if err != nil {
		return nil, fmt.Errorf("ledger: open: %w", err)
	}
	l, err := newLedger(data, trust)
	if err != nil {
		unmap()
		return nil, err
	}
	l.unmap = unmap
	return l, nil
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
	if err := trust.verify(fmt.Sprintf("block %d ledger", fh.Block), fh.keyID, fh.signed, fh.signature); err != nil {
		return nil, err
	}
	if err := fh.parseDefinition(); err != nil {
		return nil, err
	}
	if err := verifyEntries(fh, data[fh.dataOff:]); err != nil {
		return nil, err
	}
	return &Ledger{data: data, fh: fh}, nil
}

// verifyEntries checks the signed root against the leaf table and every chunk against its
// leaf, on every core.
func verifyEntries(fh *fileHeader, entries []byte) error {
	if rootHash(fh.leaves) != fh.root {
		return fmt.Errorf("ledger: block %d: leaf table does not hash to the root: %w", fh.Block, ErrHash)
	}
	n := fh.Entries()
	var (
		mu   sync.Mutex
		next int
		bad  = -1
		wg   sync.WaitGroup
	)
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(fh.leaves)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				k := next
				next++
				stop := bad >= 0
				mu.Unlock()
				if stop || k >= len(fh.leaves) {
					return
				}
				if leafHash(k, chunkBytes(entries, n, fh.chunkEntries, k)) != fh.leaves[k] {
					mu.Lock()
					if bad < 0 || k < bad {
						bad = k
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if bad >= 0 {
		return fmt.Errorf("ledger: block %d: chunk %d (entries %d..): %w", fh.Block, bad, bad*fh.chunkEntries, ErrHash)
	}
	if !paddingZero(entries, n) {
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

// Entry returns the entry of the ticket with index i (0 ≤ i < Header().Entries()).
func (l *Ledger) Entry(i int) (Entry, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		return 0, fmt.Errorf("ledger: entry: %w", ErrClosed)
	}
	if i < 0 || i >= l.fh.Entries() {
		return 0, fmt.Errorf("ledger: entry %d of %d: %w", i, l.fh.Entries(), ErrOutOfRange)
	}
	return packedAt(l.data[l.fh.dataOff:], i), nil
}

// Lookup answers a validation code: the ticket, its game, tier and lot. It fails with
// ErrUnknownBlock when the code is for another block than the ledger's, ErrOutOfRange when
// its pack or position is not in the ledger, ErrForged when the secret is not the
// ticket's (probability of a false accept ≤ 2^-24 per try), ErrClosed after Close.
// Errors never quote the secret.
func (l *Ledger) Lookup(code codes.ValidationCode) (Result, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
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
	i := fh.Index(id)
	tier, ok := open(packedAt(l.data[fh.dataOff:], i), id, &code.Secret)
	g := &fh.Definition.Games[id.Position-1]
	if !ok || int(tier) > len(g.Tiers) {
		return Result{}, fmt.Errorf("ledger: lookup %v: %w", id, ErrForged)
	}
	r := Result{Ticket: id, Game: g, Tier: tier}
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

// Inspect reads a ledger's header without trusting it, then checks the signature and the
// entries against trust (which may be nil: the signature is then reported unchecked with
// ErrNoTrustedKey). It fails only when the header cannot be parsed.
func Inspect(data []byte, trust *TrustStore) (*Info, error) {
	fh, err := parseHeader(data)
	if err != nil {
		return nil, err
	}
	if err := fh.parseDefinition(); err != nil {
		return nil, err
	}
	in := &Info{Header: fh.Header, KeyID: fh.keyID, Root: fh.root, ChunkEntries: fh.chunkEntries, Chunks: len(fh.leaves), Size: len(data)}
	in.Signature = trust.verify(fmt.Sprintf("block %d ledger", fh.Block), fh.keyID, fh.signed, fh.signature)
	in.Hashes = verifyEntries(fh, data[fh.dataOff:])
	return in, nil
}

// InspectFile maps path and inspects it.
func InspectFile(path string, trust *TrustStore) (*Info, error) {
	data, unmap, err := mapFile(path)
	if err != nil {
		return nil, fmt.Errorf("ledger: inspect: %w", err)
	}
	defer unmap()
	return Inspect(data, trust)
}
