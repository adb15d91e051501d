package slot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/internal/installlock"
)

// Errors of Install and Boot.
var (
	ErrRollback     = errors.New("slot: older than the newest version ever installed (anti-rollback)")
	ErrTooOld       = errors.New("slot: the installed version is older than the bundle's minimum")
	ErrTarget       = errors.New("slot: bundle built for another target")
	ErrTrialPending = errors.New("slot: the active slot is still on trial (mark it good or let it roll back first)")
	ErrNoBootable   = errors.New("slot: no bootable slot")
	ErrCorrupt      = errors.New("slot: slot files do not match their manifest")
	ErrNotActive    = errors.New("slot: the booted slot is no longer the active one")
)

// HeaderFile is the name of the signed bundle header kept in each slot.
const HeaderFile = ".header"

// DefaultMaxBoots is how many trial starts a new slot gets before the previous comes back.
const DefaultMaxBoots = 3

// Options configure a Store.
type Options struct {
	// MaxBoots is the number of starts a slot on trial gets (DefaultMaxBoots when 0).
	MaxBoots int
	// Target, when set, is the only target Install accepts.
	Target *bundle.Target
	// Trust, when set, makes Boot check each slot's header signature too.
	Trust  *fwkey.TrustStore
	Logger *slog.Logger
}

// Store is the slot root of one terminal. The methods that change the state (Install,
// Boot, MarkGood) hold the root's install lock (installlock) while they read and write
// it, so that the launcher, the daemon and posctl on the board never interleave them.
type Store struct {
	root string
	opt  Options
	log  *slog.Logger
	disk disk
}

// Open returns the Store at root, creating root when missing.
func Open(root string, opt Options) (*Store, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("slot: open: %w", err)
	}
	if opt.MaxBoots <= 0 {
		opt.MaxBoots = DefaultMaxBoots
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Store{root: root, opt: opt, log: log}, nil
}

// Dir is the directory of slot s.
func (s *Store) Dir(slot string) string { return filepath.Join(s.root, slot) }

func (s *Store) statePath() string { return filepath.Join(s.root, "state") }
func (s *Store) hwPath() string    { return filepath.Join(s.root, "highwater") }

// readSmall reads at most max bytes of path (more is an error).
func readSmall(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		err = fmt.Errorf("%s: more than %d bytes", path, max)
	}
	return b, err
}

// State reads the state file. A missing file is the zero State (nothing installed); an
// unreadable one is an error wrapping ErrState.
func (s *Store) State() (State, error) {
	b, err := readSmall(s.statePath(), MaxStateSize)
	if errors.Is(err, os.ErrNotExist) {
		return State{}, nil
	}
	if err != nil {
		return State{}, fmt.Errorf("slot: state: %v: %w", err, ErrState)
	}
	st, err := ParseState(b)
	if err != nil {
		return State{}, err
	}
	if hw := s.readHighWater(); st.HighWater.Less(hw) {
		st.HighWater = hw
	}
	return st, nil
}

func (s *Store) readHighWater() bundle.Version {
	b, err := readSmall(s.hwPath(), 256)
	if err != nil {
		return bundle.Version{}
	}
	var v bundle.Version
	if json.Unmarshal(bytes.TrimSpace(b), &v) != nil {
		return bundle.Version{}
	}
	return v
}

// locked runs fn under the slot root's install lock.
func (s *Store) locked(fn func() error) error {
	return installlock.Do(context.Background(), s.root, fn)
}

// releaseInto releases l, reporting its error into *err when there was none.
func releaseInto(l *installlock.Lock, err *error) {
	if rerr := l.Release(); *err == nil && rerr != nil {
		*err = fmt.Errorf("slot: %w", rerr)
	}
}

func (s *Store) writeState(st State) error {
	if err := s.disk.replace(s.statePath(), st.Marshal()); err != nil {
		return fmt.Errorf("slot: write state: %w", err)
	}
	return nil
}

// SlotHeader reads and checks the header of slot sl (signature too when Options.Trust).
func (s *Store) SlotHeader(sl string) (*bundle.Header, error) {
	f, err := os.Open(filepath.Join(s.Dir(sl), HeaderFile))
	if err != nil {
		return nil, fmt.Errorf("slot %s: %w", sl, err)
	}
	defer f.Close()
	h, err := bundle.ReadHeader(f)
	if err != nil {
		return nil, fmt.Errorf("slot %s: %w", sl, err)
	}
	if s.opt.Trust != nil {
		if err := h.Verify(s.opt.Trust); err != nil {
			return nil, fmt.Errorf("slot %s: %w", sl, err)
		}
	}
	return h, nil
}

// Verify checks that every file of slot sl matches its header's manifest and returns the
// header.
func (s *Store) Verify(sl string) (*bundle.Header, error) {
	h, err := s.SlotHeader(sl)
	if err != nil {
		return nil, err
	}
	for _, f := range h.Manifest.Files {
		if err := checkFile(filepath.Join(s.Dir(sl), f.Name), f); err != nil {
			return nil, fmt.Errorf("slot %s: %w", sl, err)
		}
	}
	return h, nil
}

func checkFile(path string, f bundle.File) error {
	fh, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%v: %w", err, ErrCorrupt)
	}
	defer fh.Close()
	h := newHash()
	n, err := io.Copy(h, io.LimitReader(fh, f.Size+1))
	if err != nil {
		return fmt.Errorf("%s: %v: %w", f.Name, err, ErrCorrupt)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	if n != f.Size || sum != f.Sum() {
		return fmt.Errorf("%s: %w", f.Name, ErrCorrupt)
	}
	return nil
}
