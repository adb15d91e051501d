package ledger

import (
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/packterm/pos/validate/internal/atomicfile"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Installed tells what an install did.
type Installed struct {
	// Path is the installed file.
	Path string
	// Block is the ledger's block (0 for a status list).
	Block uint16
	// Previous is the version that was installed (0 and HadPrevious false if none).
	Previous    uint64
	HadPrevious bool
	// Version is the version now installed.
	Version uint64
}

// Install installs the ledger file into the terminal's directory dir as
// dir/block-B.ledger, failing closed: the file must verify fully against the trust store
// (format, signature, hash tree, entries) and its version must not be lower than the
// installed ledger's of the same block (an equal version is accepted: reinstalling is
// harmless). The file is copied to a temporary file in dir, synced, verified again there
// and renamed over the installed one, so that on any failure the installed ledger stays
// as it was.
//
// The installed file's version counts even if that file no longer verifies (a damaged
// ledger must not open the door to a rollback); only a file whose header is unreadable
// sets no floor.
func Install(dir, file string, trust *TrustStore) (Installed, error) {
	data, unmap, err := mapFile(file)
	if err != nil {
		return Installed{}, fmt.Errorf("ledger: install: %w", err)
	}
	defer unmap()
	l, err := Parse(data, trust)
	if err != nil {
		return Installed{}, fmt.Errorf("ledger: install %s: %w", filepath.Base(file), err)
	}
	h := l.Header()
	res := Installed{Path: filepath.Join(dir, FileName(h.Block)), Block: h.Block, Version: h.Version}
	prev, had, err := installedVersion(res.Path, Magic, 12)
	if err != nil {
		return Installed{}, fmt.Errorf("ledger: install: %w", err)
	}
	res.Previous, res.HadPrevious = prev, had
	if had && h.Version < prev {
		return Installed{}, fmt.Errorf("ledger: install block %d: version %d, installed %d: %w", h.Block, h.Version, prev, ErrOlderVersion)
	}
	err = atomicfile.Write(res.Path, 0o644, func(w io.Writer) error { _, err := w.Write(data); return err }, func(tmp string) error {
		l2, err := OpenFile(tmp, trust)
		if err != nil {
			return fmt.Errorf("ledger: install: copy does not verify: %w", err)
		}
		return l2.Close()
	})
	if err != nil {
		return Installed{}, err
	}
	return res, nil
}

// InstallStatus installs a pack status list into dir as dir/pack-status.list, failing
// closed like Install: it must verify against the trust store, be for the retailer of the
// installed list (if any) and not be older than it.
func InstallStatus(dir, file string, trust *TrustStore) (Installed, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return Installed{}, fmt.Errorf("ledger: install status list: %w", err)
	}
	s, err := ParseStatus(data, trust)
	if err != nil {
		return Installed{}, fmt.Errorf("ledger: install %s: %w", filepath.Base(file), err)
	}
	res := Installed{Path: filepath.Join(dir, StatusFileName), Version: s.Version}
	prev, had, err := installedVersion(res.Path, StatusMagic, 12)
	if err != nil {
		return Installed{}, fmt.Errorf("ledger: install status list: %w", err)
	}
	res.Previous, res.HadPrevious = prev, had
	if had {
		if old, err := os.ReadFile(res.Path); err == nil && len(old) >= 24 {
			if r := binary.BigEndian.Uint32(old[20:]); r != s.Retailer {
				return Installed{}, fmt.Errorf("ledger: install status list: for retailer %d, this terminal is retailer %d: %w", s.Retailer, r, ErrRetailer)
			}
		}
		if s.Version < prev {
			return Installed{}, fmt.Errorf("ledger: install status list: version %d, installed %d: %w", s.Version, prev, ErrOlderVersion)
		}
	}
	err = atomicfile.Write(res.Path, 0o644, func(w io.Writer) error { _, err := w.Write(data); return err }, func(tmp string) error {
		if _, err := LoadStatus(tmp, trust); err != nil {
			return fmt.Errorf("ledger: install status list: copy does not verify: %w", err)
		}
		return nil
	})
	if err != nil {
		return Installed{}, err
	}
	return res, nil
}

// installedVersion reads the version field (8 bytes at off) of the installed file at
// path, trusting nothing else: had is false when there is no file or its header is
// unreadable (wrong magic, too short).
func installedVersion(path, magic string, off int) (v uint64, had bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	b := make([]byte, off+8)
	if _, err := io.ReadFull(f, b); err != nil || string(b[:len(magic)]) != magic {
		return 0, false, nil
	}
	return binary.BigEndian.Uint64(b[off:]), true, nil
}
