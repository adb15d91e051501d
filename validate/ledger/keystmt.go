package ledger

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

// Operator key statements (docs/ledger.md, "Trust: key statements"): the only way the
// operator keys a terminal trusts change once it runs. A statement is the new full set of
// trusted operator public keys with a version, signed by a key the terminal trusts now.
const (
	// KeyStatementType is the first word of an operator key statement.
	KeyStatementType = "pos-operator-keys"
	// KeyStatementFile is the installed statement's name in the terminal's data directory.
	KeyStatementFile = "operator-keys.stmt"
	// MaxKeyStatementSize bounds a statement file.
	MaxKeyStatementSize = edkey.MaxStatementSize
)

// keyStatementDomain prefixes the signed bytes of a statement: neither a ledger
// ("PTLEDGER…") nor a status list ("PTSTATUS…") signature can stand for one, nor the
// reverse, nor a firmware key statement.
const keyStatementDomain = "packterm operator key statement v1\x00"

// ErrKeyStatement is wrapped by every refusal of a statement's text.
var ErrKeyStatement = errors.New("bad operator key statement")

var keyStatements = edkey.StatementKind{
	Name: "ledger: key statement", Type: KeyStatementType, Domain: keyStatementDomain, Keys: keys, Err: ErrKeyStatement,
}

// KeyStatement is a parsed operator key statement. Parse has checked that it is whole
// (its signature verifies under its stated signer); Verify says whether that signer is
// trusted.
type KeyStatement struct {
	st *edkey.Statement
}

// Version is the statement's version; a terminal installs only a higher one.
func (s *KeyStatement) Version() uint64 { return s.st.Version }

// Keys are the operator public keys the statement trusts, sorted by id.
func (s *KeyStatement) Keys() []ed25519.PublicKey { return s.st.Keys }

// IDs are the ids of Keys.
func (s *KeyStatement) IDs() []KeyID { return s.st.IDs() }

// Signer is the id of the key that signed the statement.
func (s *KeyStatement) Signer() KeyID { return s.st.SignerID() }

// TrustStore trusts exactly the statement's keys.
func (s *KeyStatement) TrustStore() *TrustStore { return edkey.StoreOf[operatorKeys](s.st.Set()) }

// Verify checks that the statement was signed by a key of t (the trust in force).
func (s *KeyStatement) Verify(t *TrustStore) error {
	if err := t.VerifyStatement(s.st, keyStatements); err != nil {
		return fmt.Errorf("ledger: key statement: %w", err)
	}
	return nil
}

// SignKeyStatement returns the statement text trusting keys at version, signed by priv.
func SignKeyStatement(version uint64, keys []ed25519.PublicKey, priv ed25519.PrivateKey) ([]byte, error) {
	return keyStatements.Sign(version, keys, priv)
}

// ParseKeyStatement reads a statement's text (docs/ledger.md has the layout).
func ParseKeyStatement(text []byte) (*KeyStatement, error) {
	st, err := keyStatements.Parse(text)
	if err != nil {
		return nil, err
	}
	return &KeyStatement{st: st}, nil
}

// LoadKeyStatement reads and parses a statement file (a regular file only).
func LoadKeyStatement(path string) (*KeyStatement, error) {
	text, err := regularfile.ReadFile(path, MaxKeyStatementSize)
	if err != nil {
		return nil, fmt.Errorf("ledger: key statement: %w", err)
	}
	s, err := ParseKeyStatement(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// LoadTrust is the operator trust in force on a terminal: the keys of the installed
// statement when there is one (it was verified against the trust in force when it was
// installed, and is checked whole again here), else the anchor key files or directories
// the terminal was flashed with ([keys] operator). A statement that is there but
// unreadable or damaged is an error: trust is never guessed at, and never falls back.
func LoadTrust(statement string, anchors ...string) (*TrustStore, error) {
	if statement != "" {
		s, err := LoadKeyStatement(statement)
		if err == nil {
			return s.TrustStore(), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return LoadTrustStore(anchors...)
}

// InstallKeyStatement installs the statement file candidate at path (the terminal's
// KeyStatementFile) after checking it against inForce, the trust the terminal holds now:
// its signer must be trusted there, and its version above the installed statement's. The
// installed version is read and the file replaced atomically under the install lock of
// path's directory (installlock), as every install; on any refusal it is left as it was.
func InstallKeyStatement(path, candidate string, inForce *TrustStore) (Installed, error) {
	text, err := regularfile.ReadFile(candidate, MaxKeyStatementSize)
	if err != nil {
		return Installed{}, fmt.Errorf("ledger: key statement: %w", err)
	}
	s, err := ParseKeyStatement(text)
	if err != nil {
		return Installed{}, err
	}
	if err := s.Verify(inForce); err != nil {
		return Installed{}, err
	}
	return installText(path, text, s.Version(), "key statement", MaxKeyStatementSize, func() (uint64, error) {
		old, err := LoadKeyStatement(path)
		if err != nil {
			return 0, err
		}
		return old.Version(), nil
	})
}

// installText installs a signed statement's text, of version, at path: under the install
// lock of path's directory (installlock), installed reads the version of the statement
// there (an error wrapping fs.ErrNotExist: none), a version not above it is refused
// (ErrOlderVersion), and the text replaces it atomically, checked once written. On any
// refusal the installed statement is left as it was. what names it in errors.
func installText(path string, text []byte, version uint64, what string, maxSize int64, installed func() (uint64, error)) (Installed, error) {
	res := Installed{Path: path, Version: version}
	err := installlock.Do(context.Background(), filepath.Dir(path), func() error {
		old, err := installed()
		switch {
		case err == nil:
			res.Previous, res.HadPrevious = old, true
			if version <= old {
				return fmt.Errorf("ledger: %s: version %d, installed %d: %w", what, version, old, ErrOlderVersion)
			}
		case !errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("ledger: installed %s: %w", what, err)
		}
		return atomicfile.Write(path, 0o644, func(w io.Writer) error {
			_, err := w.Write(text)
			return err
		}, func(tmp string) error {
			b, err := regularfile.ReadFile(tmp, maxSize)
			if err == nil && !bytes.Equal(b, text) {
				err = fmt.Errorf("ledger: %s: the written copy differs", what)
			}
			return err
		})
	})
	if err != nil {
		return Installed{}, err
	}
	return res, nil
}
