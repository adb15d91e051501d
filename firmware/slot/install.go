package slot

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/internal/installlock"
)

func newHash() hash.Hash { return sha256.New() }

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// Installed is what Install did.
type Installed struct {
	Slot     string
	Version  bundle.Version
	Previous string
	Bytes    int64
}

// Check tells whether a bundle with manifest m may be installed now (target,
// anti-rollback, minimum version, no trial pending), without writing anything. The flash
// server calls it as soon as a bundle's header has arrived.
func (s *Store) Check(m *bundle.Manifest) error {
	st, err := s.State()
	if err != nil {
		// Fail closed: with an unreadable state no install (Boot repairs it first).
		return err
	}
	return s.check(st, m)
}

func (s *Store) check(st State, m *bundle.Manifest) error {
	if t := s.opt.Target; t != nil && *t != m.Target {
		return fmt.Errorf("slot: bundle for %v, this terminal is %v: %w", m.Target, *t, ErrTarget)
	}
	if st.Trial {
		return ErrTrialPending
	}
	if m.Version.Less(st.HighWater) {
		return fmt.Errorf("slot: version %v, newest installed %v: %w", m.Version, st.HighWater, ErrRollback)
	}
	if err := s.checkSameVersion(st, m); err != nil { // sameversion.go
		return err
	}
	if st.Active != "" {
		h, err := s.SlotHeader(st.Active)
		if err != nil {
			return err
		}
		if cur := h.Manifest.Version; cur.Less(m.MinVersion) {
			return fmt.Errorf("slot: installed %v, bundle needs %v or newer: %w", cur, m.MinVersion, ErrTooOld)
		}
	}
	return nil
}

// Install writes the bundle r (whose signature the caller verified with
// bundle.NewReader) into the inactive slot and makes it the active slot on trial. On any
// error the active slot is unchanged; the inactive one may hold a partial copy, which no
// boot uses.
//
// The whole install runs under the slot root's install lock (installlock): a second
// install, from this process or another, waits, then finds the new slot on trial and is
// refused; Boot and MarkGood wait too.
func (s *Store) Install(ctx context.Context, r *bundle.Reader) (res Installed, err error) {
	l, err := installlock.Acquire(ctx, s.root)
	if err != nil {
		return Installed{}, fmt.Errorf("slot: install: %w", err)
	}
	defer releaseInto(l, &err)
	return s.install(ctx, r)
}

func (s *Store) install(ctx context.Context, r *bundle.Reader) (Installed, error) {
	st, err := s.State()
	if err != nil {
		return Installed{}, err
	}
	m := r.Manifest()
	if err := s.check(st, m); err != nil {
		return Installed{}, err
	}
	target := other(st.Active)
	if st.Previous == target {
		// The fallback slot is about to be overwritten: stop pointing at it first.
		st.Previous = ""
		if err := s.writeState(st); err != nil {
			return Installed{}, err
		}
	}
	dir := s.Dir(target)
	if err := s.disk.resetDir(dir); err != nil {
		return Installed{}, fmt.Errorf("slot: install: %w", err)
	}
	for {
		f, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Installed{}, fmt.Errorf("slot: install: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return Installed{}, fmt.Errorf("slot: install: %w", err)
		}
		perm := os.FileMode(0o644)
		if f.Type == bundle.Posd || f.Type == bundle.Posctl {
			perm = 0o755
		}
		if err := s.disk.writeFile(filepath.Join(dir, f.Name), perm, r); err != nil {
			return Installed{}, fmt.Errorf("slot: install %s: %w", f.Name, err)
		}
	}
	// The header goes last: a slot without one is never booted.
	if err := s.disk.writeFile(filepath.Join(dir, HeaderFile), 0o644, bytesReader(r.Header().Encode())); err != nil {
		return Installed{}, fmt.Errorf("slot: install: %w", err)
	}
	if err := s.disk.syncDir(dir); err != nil {
		return Installed{}, err
	}
	if st.HighWater.Less(m.Version) || !fileExists(s.hwManifestPath()) {
		// The content first: a crash between the two leaves the old mark with a digest
		// no bundle of it matches, and an install of that version is refused, never one
		// of another content accepted.
		if err := s.keepManifest(m); err != nil {
			return Installed{}, err
		}
	}
	if st.HighWater.Less(m.Version) {
		st.HighWater = m.Version
		hw, _ := json.Marshal(m.Version)
		if err := s.disk.replace(s.hwPath(), append(hw, '\n')); err != nil {
			return Installed{}, fmt.Errorf("slot: install: high-water mark: %w", err)
		}
	}
	prev := st.Active
	st = State{Active: target, Previous: prev, Trial: true, HighWater: st.HighWater}
	if err := s.writeState(st); err != nil {
		return Installed{}, err
	}
	s.log.Info("slot: installed, on trial until marked good", "slot", target, "version", m.Version.String(), "previous", prev)
	return Installed{Slot: target, Version: m.Version, Previous: prev, Bytes: m.PayloadSize()}, nil
}
