package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/packterm/pos/firmware/fwkey"
)

// inputs are what posboot boots with.
type inputs struct {
	cfg      *bootConfig       // nil without --config
	trust    *fwkey.TrustStore // nil: each slot checked against its own header only
	posdArgs []string
}

// loadInputs reads the firmware keys from one place: posd's configuration ([keys]
// firmware) when --config names it, which posd is then started with too, else --trust.
// Any failure wraps errUnusable (restarting posboot would not mend it).
func loadInputs(root, configPath string, trust, args []string, anchorOwner int) (inputs, error) {
	in := inputs{posdArgs: args}
	anchors := trust
	if configPath != "" {
		if len(trust) > 0 {
			return inputs{}, fmt.Errorf("%w: --trust with --config: the firmware keys are the configuration's [keys] firmware alone", errUnusable)
		}
		if slices.ContainsFunc(args, func(a string) bool {
			return a == "--config" || a == "-config" || strings.HasPrefix(a, "--config=") || strings.HasPrefix(a, "-config=")
		}) {
			return inputs{}, fmt.Errorf("%w: --config after --: posd is started with posboot's --config", errUnusable)
		}
		c, err := loadBootConfig(configPath)
		if err != nil {
			return inputs{}, fmt.Errorf("%w: %w", errUnusable, err)
		}
		in.cfg = c
		anchors = c.Firmware
		in.posdArgs = append([]string{"--config", configPath}, args...)
	}
	if len(anchors) == 0 {
		return in, nil
	}
	for _, a := range anchors {
		if err := checkAnchor(a, anchorOwner); err != nil {
			return inputs{}, fmt.Errorf("%w: firmware key %s: %w", errUnusable, a, err)
		}
	}
	ts, err := bootTrust(root, anchors)
	if err != nil {
		return inputs{}, fmt.Errorf("%w: %w", errUnusable, err)
	}
	in.trust = ts
	return in, nil
}

// bootTrust is what installed slots are checked against: the anchors ([keys] firmware)
// and the keys of the firmware key statement installed in the slot root
// (ROOT/firmware-keys.stmt), so that a slot installed under a key the statement retired
// still boots. A damaged statement stops the boot (it is never ignored).
func bootTrust(root string, anchors []string) (*fwkey.TrustStore, error) {
	ts, err := fwkey.LoadTrustStore(anchors...)
	if err != nil {
		return nil, err
	}
	st, err := fwkey.LoadStatement(filepath.Join(root, fwkey.StatementFile))
	if errors.Is(err, fs.ErrNotExist) {
		return ts, nil
	}
	if err != nil {
		return nil, err
	}
	return ts.Union(st.TrustStore()), nil
}

// errAnchorWritable: a firmware key file the service's user could have written.
var errAnchorWritable = errors.New("writable by someone other than root")

// checkAnchor refuses a firmware key path (a file, or a directory of *.pub files) that
// anyone but root (or owner, when not -1) could have written or swapped: the path, what
// it resolves to, and every directory above either must belong to root and be writable
// by no one else (a directory above may be writable by others with the sticky bit, like
// /tmp: they cannot rename what is not theirs). posd runs as the same user as posboot
// and may rewrite its configuration (a provisioned one): a key file it could write, or
// point [keys] firmware at, would let it choose the firmware posboot boots.
func checkAnchor(path string, owner int) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	for _, p := range []string{filepath.Clean(path), real} {
		if err := checkChain(p, owner); err != nil {
			return err
		}
	}
	fi, err := os.Stat(real)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return nil
	}
	pubs, err := filepath.Glob(filepath.Join(real, "*.pub"))
	if err != nil {
		return err
	}
	for _, p := range pubs {
		if err := checkOne(p, owner, false); err != nil {
			return err
		}
	}
	return nil
}

// checkChain checks p (not following a last symbolic link) and each directory above it.
func checkChain(p string, owner int) error {
	if err := checkOne(p, owner, false); err != nil {
		return err
	}
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		if err := checkOne(d, owner, true); err != nil {
			return err
		}
		if d == filepath.Dir(d) {
			return nil
		}
	}
}

// checkOne checks one name: owned by root or owner; writable by group or others only
// when it is a symbolic link (its mode means nothing) or, for a directory above, sticky.
func checkOne(p string, owner int, above bool) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%s: no owner", p)
	}
	if st.Uid != 0 && (owner < 0 || st.Uid != uint32(owner)) {
		return fmt.Errorf("%s: owned by uid %d: %w", p, st.Uid, errAnchorWritable)
	}
	m := fi.Mode()
	switch {
	case m&fs.ModeSymlink != 0:
		return nil
	case above && m&fs.ModeSticky != 0:
		return nil
	case m.Perm()&0o022 != 0:
		return fmt.Errorf("%s: mode %04o: %w", p, m.Perm(), errAnchorWritable)
	}
	return nil
}
