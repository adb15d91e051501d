package fwkey

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/packterm/pos/internal/atomicfile"
	"github.com/packterm/pos/internal/edkey"
	"github.com/packterm/pos/internal/installlock"
	"github.com/packterm/pos/internal/regularfile"
)

// Firmware key statements: the only way the firmware keys a terminal trusts change once it
// runs (docs/firmware.md, "Firmware keys"). A statement is the new full set of trusted
// firmware public keys with a version, signed by a firmware key the terminal trusts now.
const (
	// StatementType is the first word of a firmware key statement.
	StatementType = "pos-firmware-keys"
	// StatementFile is the installed statement's name in the slot root, where posboot
	// (--root) and posd (POS_SLOT_ROOT) both find it.
	StatementFile = "firmware-keys.stmt"
	// MaxStatementSize bounds a statement file.
	MaxStatementSize = edkey.MaxStatementSize
)

// statementDomain prefixes a statement's signed bytes; a bundle signature ("packterm
// firmware bundle v1\0" ‖ …) or an operator key statement can never stand for one.
const statementDomain = "packterm firmware key statement v1\x00"

// Statement errors.
var (
	ErrStatement    = errors.New("fwkey: bad firmware key statement")
	ErrOlderVersion = errors.New("fwkey: statement version not above the installed one")
)

var statements = edkey.StatementKind{
	Name: "fwkey: statement", Type: StatementType, Domain: statementDomain, Keys: keys, Err: ErrStatement,
}

// Statement is a parsed firmware key statement, whole (its signature verifies under its
// stated signer); Verify says whether that signer is trusted.
type Statement struct {
	st *edkey.Statement
}

// Version is the statement's version; a terminal installs only a higher one.
func (s *Statement) Version() uint64 { return s.st.Version }

// Keys are the firmware public keys the statement trusts, sorted by id.
func (s *Statement) Keys() []ed25519.PublicKey { return s.st.Keys }

// IDs are the ids of Keys.
func (s *Statement) IDs() []ID { return s.st.IDs() }

// Signer is the id of the key that signed the statement.
func (s *Statement) Signer() ID { return s.st.SignerID() }

// TrustStore trusts exactly the statement's keys.
func (s *Statement) TrustStore() *TrustStore { return edkey.StoreOf[firmwareKeys](s.st.Set()) }

// Verify checks that the statement was signed by a key of t (the trust in force).
func (s *Statement) Verify(t *TrustStore) error { return t.VerifyStatement(s.st, statements) }

// SignStatement returns the statement text trusting keys at version, signed by priv.
func SignStatement(version uint64, keys []ed25519.PublicKey, priv ed25519.PrivateKey) ([]byte, error) {
	return statements.Sign(version, keys, priv)
}

// ParseStatement reads a statement's text (the layout of internal/edkey's statements).
func ParseStatement(text []byte) (*Statement, error) {
	st, err := statements.Parse(text)
	if err != nil {
		return nil, err
	}
	return &Statement{st: st}, nil
}

// LoadStatement reads and parses a statement file (a regular file only).
func LoadStatement(path string) (*Statement, error) {
	text, err := regularfile.ReadFile(path, MaxStatementSize)
	if err != nil {
		return nil, fmt.Errorf("fwkey: statement: %w", err)
	}
	s, err := ParseStatement(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// LoadTrust is the firmware trust in force: the installed statement's keys when there is
// one (verified when installed, checked whole here), else the anchor key files or
// directories ([keys] firmware, posboot --trust). A statement there but damaged is an
// error, never a fallback to the anchors.
func LoadTrust(statement string, anchors ...string) (*TrustStore, error) {
	if statement != "" {
		s, err := LoadStatement(statement)
		if err == nil {
			return s.TrustStore(), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return LoadTrustStore(anchors...)
}

// Installed says what InstallStatement replaced.
type Installed struct {
	Version, Previous uint64
	HadPrevious       bool
}

// InstallStatement installs the statement file candidate at path (StatementFile in the
// slot root) after checking it against inForce: a trusted signer and a version above the
// installed statement's. The installed version is read and the file replaced atomically
// (temporary file, fsync, rename, directory fsync) under the install lock of the slot
// root (installlock), which firmware installs take too; on any refusal it is left as it
// was.
func InstallStatement(path, candidate string, inForce *TrustStore) (Installed, error) {
	text, err := regularfile.ReadFile(candidate, MaxStatementSize)
	if err != nil {
		return Installed{}, fmt.Errorf("fwkey: statement: %w", err)
	}
	s, err := ParseStatement(text)
	if err != nil {
		return Installed{}, err
	}
	if err := s.Verify(inForce); err != nil {
		return Installed{}, fmt.Errorf("fwkey: statement: %w", err)
	}
	res := Installed{Version: s.Version()}
	err = installlock.Do(context.Background(), filepath.Dir(path), func() error {
		old, err := LoadStatement(path)
		switch {
		case err == nil:
			res.Previous, res.HadPrevious = old.Version(), true
			if s.Version() <= old.Version() {
				return fmt.Errorf("fwkey: statement version %d, installed %d: %w", s.Version(), old.Version(), ErrOlderVersion)
			}
		case !errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("fwkey: installed statement: %w", err)
		}
		return writeAtomic(path, text)
	})
	if err != nil {
		return Installed{}, err
	}
	return res, nil
}

// writeAtomic replaces path with data: temporary file in the same directory, fsync, check
// the copy, rename, fsync the directory.
func writeAtomic(path string, data []byte) error {
	err := atomicfile.Write(path, 0o644, func(w io.Writer) error { _, err := w.Write(data); return err }, func(tmp string) error {
		if b, rerr := regularfile.ReadFile(tmp, MaxStatementSize); rerr != nil || !bytes.Equal(b, data) {
			return fmt.Errorf("fwkey: writing %s: the written copy differs", path)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("fwkey: %w", err)
	}
	return nil
}
