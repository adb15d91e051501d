package server

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// DefaultRescan is how often, at most, the claim service looks in its ledger directory
// for a block it holds no ledger of (a claim of that block triggers the look).
const DefaultRescan = 30 * time.Second

// LedgerOptions configure LoadLedgers.
type LedgerOptions struct {
	Rescan time.Duration // at most one rescan per Rescan; default DefaultRescan
	Clock  clockwork.Clock
	Logger *slog.Logger
}

// Ledgers are the operator's block ledgers the claim service decides with: every
// block-B.ledger file of a directory, each read into memory with plain reads (a private
// copy: a file rewritten later changes nothing of what is answered) and verified fully
// against the operator's keys (signature, hash tree, entries) before use. Of two files
// of one block the higher version answers. A block the service holds no ledger of is
// refused (unknown-block); such a claim makes it look in the directory again, at most
// once per Rescan, for ledgers published since.
type Ledgers struct {
	dir   string
	trust *ledger.TrustStore
	o     LedgerOptions

	mu       sync.RWMutex
	byBlock  map[uint16]*ledger.Ledger
	seen     map[string]fileStamp // files read (verified or not), by name
	lastScan time.Time
	scanning sync.Mutex
}

type fileStamp struct {
	size int64
	mod  time.Time
}

// LoadLedgers reads and verifies every ledger of dir. It fails if any does not verify
// (a file the operator published that is not what it should be: fail closed, loudly), or
// if trust holds no key.
func LoadLedgers(dir string, trust *ledger.TrustStore, o LedgerOptions) (*Ledgers, error) {
	if trust == nil || trust.Len() == 0 {
		return nil, fmt.Errorf("fleet ledgers: %w", ledger.ErrNoTrustedKey)
	}
	if o.Rescan <= 0 {
		o.Rescan = DefaultRescan
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	l := &Ledgers{dir: dir, trust: trust, o: o, byBlock: map[uint16]*ledger.Ledger{}, seen: map[string]fileStamp{}}
	if err := l.scan(true); err != nil {
		return nil, err
	}
	l.lastScan = o.Clock.Now()
	return l, nil
}

// Blocks are the blocks held, ascending.
func (l *Ledgers) Blocks() []uint16 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	var bs []uint16
	for b := range l.byBlock {
		bs = append(bs, b)
	}
	slices.Sort(bs)
	return bs
}

// Lookup answers code from its block's ledger (ledger.Ledger.Lookup);
// ledger.ErrUnknownBlock when none is held, even after a rescan.
func (l *Ledgers) Lookup(code codes.ValidationCode) (ledger.Result, error) {
	b := code.Block
	l.mu.RLock()
	led := l.byBlock[b]
	l.mu.RUnlock()
	if led == nil && l.rescan() {
		l.mu.RLock()
		led = l.byBlock[b]
		l.mu.RUnlock()
	}
	if led == nil {
		return ledger.Result{}, fmt.Errorf("fleet ledgers: no ledger of block %d: %w", b, ledger.ErrUnknownBlock)
	}
	return led.Lookup(code)
}

// rescan looks in the directory again if the last look is older than Rescan; it reports
// whether it looked.
func (l *Ledgers) rescan() bool {
	if !l.scanning.TryLock() {
		return false
	}
	defer l.scanning.Unlock()
	now := l.o.Clock.Now()
	l.mu.RLock()
	due := now.Sub(l.lastScan) >= l.o.Rescan
	l.mu.RUnlock()
	if !due {
		return false
	}
	if err := l.scan(false); err != nil {
		l.o.Logger.Error("fleet ledgers: rescan", "dir", l.dir, "err", err)
	}
	l.mu.Lock()
	l.lastScan = now
	l.mu.Unlock()
	return true
}

// scan reads the files not read yet (or changed since); strict: the first that fails
// fails the scan, otherwise failures are logged and the file is skipped.
func (l *Ledgers) scan(strict bool) error {
	names, err := filepath.Glob(filepath.Join(l.dir, "block-*.ledger"))
	if err != nil {
		return fmt.Errorf("fleet ledgers: %w", err)
	}
	if _, err := os.Stat(l.dir); err != nil {
		return fmt.Errorf("fleet ledgers: %w", err)
	}
	for _, name := range names {
		fi, err := os.Stat(name)
		if err != nil {
			return fmt.Errorf("fleet ledgers: %w", err)
		}
		stamp := fileStamp{size: fi.Size(), mod: fi.ModTime()}
		l.mu.RLock()
		old, read := l.seen[name]
		l.mu.RUnlock()
		if read && old == stamp {
			continue
		}
		err = l.load(name)
		l.mu.Lock()
		l.seen[name] = stamp
		l.mu.Unlock()
		if err != nil && strict && !errors.Is(err, errOlder) {
			return err
		}
		if err != nil {
			l.o.Logger.Error("fleet ledgers: ledger refused", "file", filepath.Base(name), "err", err)
		}
	}
	return nil
}

// errOlder: a file of a block whose held ledger has a higher version (kept).
var errOlder = errors.New("a higher version of the block is held")

func (l *Ledgers) load(path string) error {
	led, err := ledger.ReadFile(path, l.trust)
	if err != nil {
		return fmt.Errorf("fleet ledgers: %s: %w", filepath.Base(path), err)
	}
	h := led.Header()
	l.mu.Lock()
	defer l.mu.Unlock()
	if cur := l.byBlock[h.Block]; cur != nil && cur.Header().Version > h.Version {
		led.Close()
		return fmt.Errorf("fleet ledgers: %s: block %d version %d: %w", filepath.Base(path), h.Block, h.Version, errOlder)
	}
	l.byBlock[h.Block] = led // the one replaced is in memory: lookups under way finish on it
	l.o.Logger.Info("fleet ledgers: ledger in use", "block", h.Block, "version", h.Version, "file", filepath.Base(path))
	return nil
}
