package ledger

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/packterm/pos/internal/atomicfile"
	"github.com/packterm/pos/internal/installlock"
	"github.com/packterm/pos/internal/regularfile"
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
// dir/block-B.ledger, failing closed. The file is first copied, with plain reads, into a
// temporary file of dir (the terminal's own, which nobody else writes) and synced; every
// check then runs on that copy: it must verify fully against the trust store (format,
// signature, hash tree, entries) and its version must not be lower than the installed
// ledger's of the same block (an equal version is accepted: reinstalling is harmless).
// Only then is the copy renamed over the installed file. A source rewritten during the
// install therefore cannot slip anything past the checks: what is installed is what was
// checked. The version floor is read and the copy renamed under dir's install lock
// (installlock), so that concurrent installs, in this process or another, never roll
// each other back. On any failure the installed ledger stays as it was.
//
// The installed file's version counts even if that file no longer verifies (a damaged
// ledger must not open the door to a rollback); only a file whose header is unreadable
// sets no floor.
func Install(dir, file string, trust *TrustStore) (Installed, error) {
	var res Installed
	err := installCopy(dir, file, maxFileSize, func(tmp string) error {
		in, err := VerifyFile(tmp, trust)
		if err != nil {
			return fmt.Errorf("ledger: install %s: %w", filepath.Base(file), err)
		}
		res = Installed{Path: filepath.Join(dir, FileName(in.Block)), Block: in.Block, Version: in.Version}
		return nil
	}, func() (string, error) {
		prev, had, err := installedVersion(res.Path, Magic, 12)
		if err != nil {
			return "", fmt.Errorf("ledger: install: %w", err)
		}
		res.Previous, res.HadPrevious = prev, had
		if had && res.Version < prev {
			return "", fmt.Errorf("ledger: install block %d: version %d, installed %d: %w", res.Block, res.Version, prev, ErrOlderVersion)
		}
		return res.Path, nil
	})
	if err != nil {
		return Installed{}, err
	}
	return res, nil
}

// InstallStatus installs a pack status list into dir as dir/pack-status.list, failing
// closed like Install (copy first, every check on the copy): the list must verify
// against the trust store, be for retailer (the terminal's own id, from its
// configuration: a list for another retailer is refused even when none is installed yet)
// and for the retailer of the installed list if any, and not be older than it.
func InstallStatus(dir, file string, trust *TrustStore, retailer uint32) (Installed, error) {
	if retailer == 0 {
		return Installed{}, fmt.Errorf("ledger: install status list: no retailer id configured for this terminal: %w", ErrRetailer)
	}
	var res Installed
	var list *StatusList
	err := installCopy(dir, file, maxStatusSize, func(tmp string) error {
		s, err := LoadStatus(tmp, trust)
		if err != nil {
			return fmt.Errorf("ledger: install %s: %w", filepath.Base(file), err)
		}
		if s.Retailer != retailer {
			return fmt.Errorf("ledger: install status list: for retailer %d, this terminal is retailer %d: %w", s.Retailer, retailer, ErrRetailer)
		}
		list = s
		res = Installed{Path: filepath.Join(dir, StatusFileName), Version: s.Version}
		return nil
	}, func() (string, error) {
		prev, had, err := installedVersion(res.Path, StatusMagic, 12)
		if err != nil {
			return "", fmt.Errorf("ledger: install status list: %w", err)
		}
		res.Previous, res.HadPrevious = prev, had
		if had {
			if r, ok := installedRetailer(res.Path); ok && r != list.Retailer {
				return "", fmt.Errorf("ledger: install status list: for retailer %d, the installed list is retailer %d's: %w", list.Retailer, r, ErrRetailer)
			}
			if list.Version < prev {
				return "", fmt.Errorf("ledger: install status list: version %d, installed %d: %w", list.Version, prev, ErrOlderVersion)
			}
		}
		return res.Path, nil
	})
	if err != nil {
		return Installed{}, err
	}
	return res, nil
}

// installCopy copies the regular file src (at most max bytes, plain reads) into a new
// temporary file of dir, syncs it, and calls verify with the copy's path. Then, holding
// dir's install lock (installlock: other goroutines and processes installing into dir
// wait), decide compares the copy with what is installed and names where it goes, and
// the copy is renamed there (and dir synced): no other install can rename between the
// two. The copy is removed on any failure.
func installCopy(dir, src string, max int64, verify func(tmp string) error, decide func() (string, error)) (err error) {
	in, _, err := regularfile.Open(src)
	if err != nil {
		return fmt.Errorf("ledger: install: %w", err)
	}
	defer in.Close()
	tmp, err := atomicfile.Stage(filepath.Join(dir, "install"), 0o644, func(w io.Writer) error {
		n, err := io.Copy(w, io.LimitReader(in, max+1))
		if err != nil {
			return fmt.Errorf("copying %s: %w", src, err)
		}
		if n > max {
			return fmt.Errorf("%s is larger than %d bytes: %w", src, max, ErrFormat)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("ledger: install: %w", err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if err = verify(tmp); err != nil {
		return err
	}
	return installlock.Do(context.Background(), dir, func() error {
		target, err := decide()
		if err != nil {
			return err
		}
		return atomicfile.Commit(tmp, target)
	})
}

// installedVersion reads the version field (8 bytes at off) of the installed file at
// path, trusting nothing else: had is false when there is no file or its header is
// unreadable (wrong magic, too short). Anything at path but a regular file is an error.
func installedVersion(path, magic string, off int) (v uint64, had bool, err error) {
	b, ok, err := installedHead(path, magic, off+8)
	if !ok {
		return 0, false, err
	}
	return binary.BigEndian.Uint64(b[off:]), true, nil
}

// installedRetailer reads the retailer of the installed status list.
func installedRetailer(path string) (uint32, bool) {
	b, ok, _ := installedHead(path, StatusMagic, 24)
	if !ok {
		return 0, false
	}
	return binary.BigEndian.Uint32(b[20:]), true
}

func installedHead(path, magic string, n int) ([]byte, bool, error) {
	f, _, err := regularfile.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	b := make([]byte, n)
	if _, err := io.ReadFull(f, b); err != nil || string(b[:len(magic)]) != magic {
		return nil, false, nil
	}
	return b, true, nil
}
