package ledger

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/packterm/pos/validate/internal/regularfile"
)

// Key file types: the first word of the one-line key file (docs/ledger.md, "Key files").
const (
	PublicKeyType  = "pos-ed25519-public"
	PrivateKeyType = "pos-ed25519-private"
)

// Operator key file names that GenerateKey writes.
const (
	OperatorPublicFile  = "operator.pub"
	OperatorPrivateFile = "operator.key"
)

// KeyID names a public key in files and messages: the first 8 bytes of its SHA-256.
type KeyID [8]byte

// IDOf returns the key id of pub.
func IDOf(pub ed25519.PublicKey) KeyID {
	s := sha256.Sum256(pub)
	var id KeyID
	copy(id[:], s[:])
	return id
}

// String is the id in hex.
func (id KeyID) String() string { return hex.EncodeToString(id[:]) }

// MarshalPublicKey returns the key file text of pub: "pos-ed25519-public BASE64 COMMENT\n".
func MarshalPublicKey(pub ed25519.PublicKey, comment string) []byte {
	return marshalKey(PublicKeyType, pub, comment)
}

// MarshalPrivateKey returns the key file text of priv; it holds the 32-byte seed.
func MarshalPrivateKey(priv ed25519.PrivateKey, comment string) []byte {
	return marshalKey(PrivateKeyType, priv.Seed(), comment)
}

func marshalKey(typ string, b []byte, comment string) []byte {
	line := typ + " " + base64.StdEncoding.EncodeToString(b)
	if c := strings.Join(strings.Fields(comment), " "); c != "" {
		line += " " + c
	}
	return []byte(line + "\n")
}

// ParsePublicKey reads a public key file's text.
func ParsePublicKey(text []byte) (ed25519.PublicKey, error) {
	b, err := parseKey(text, PublicKeyType, ed25519.PublicKeySize)
	if err != nil {
		return nil, err
	}
	return ed25519.PublicKey(b), nil
}

// ParsePrivateKey reads a private key file's text.
func ParsePrivateKey(text []byte) (ed25519.PrivateKey, error) {
	b, err := parseKey(text, PrivateKeyType, ed25519.SeedSize)
	if err != nil {
		return nil, err
	}
	return ed25519.NewKeyFromSeed(b), nil
}

func parseKey(text []byte, typ string, size int) ([]byte, error) {
	line, rest, _ := bytes.Cut(text, []byte("\n"))
	if len(bytes.TrimSpace(rest)) != 0 {
		return nil, fmt.Errorf("ledger: key: more than one line: %w", ErrKeyFile)
	}
	f := strings.Fields(string(line))
	if len(f) < 2 {
		return nil, fmt.Errorf("ledger: key: want %q and a base64 key: %w", typ, ErrKeyFile)
	}
	if f[0] != typ {
		if f[0] == PrivateKeyType || f[0] == PublicKeyType {
			return nil, fmt.Errorf("ledger: key: a %s where a %s is wanted: %w", f[0], typ, ErrKeyFile)
		}
		return nil, fmt.Errorf("ledger: key: unknown key type %.40q, want %s: %w", f[0], typ, ErrKeyFile)
	}
	b, err := base64.StdEncoding.Strict().DecodeString(f[1])
	if err != nil {
		return nil, fmt.Errorf("ledger: key: bad base64: %w", ErrKeyFile)
	}
	if len(b) != size {
		return nil, fmt.Errorf("ledger: key: %d bytes, want %d: %w", len(b), size, ErrKeyFile)
	}
	return b, nil
}

// maxKeyFile bounds a key file (one short line).
const maxKeyFile = 4096

// LoadPublicKey reads a public key file (a regular file: anything else is refused before
// it is read). A private key file given instead is refused, saying so.
func LoadPublicKey(path string) (ed25519.PublicKey, error) {
	text, err := regularfile.ReadFile(path, maxKeyFile)
	if err != nil {
		return nil, fmt.Errorf("ledger: load public key: %w", err)
	}
	if keyType(text) == PrivateKeyType {
		return nil, fmt.Errorf("ledger: load public key: %s is a private key file; give the public key (the .pub file beside it): %w", path, ErrKeyFile)
	}
	k, err := ParsePublicKey(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// LoadPrivateKey reads a private key file. It refuses a file that others than its owner
// may read (mode & 0o077 != 0), as ssh does, and a public key file given instead, saying
// so.
func LoadPrivateKey(path string) (ed25519.PrivateKey, error) {
	f, _, err := regularfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("ledger: load private key: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("ledger: load private key: %w", err)
	}
	text, err := io.ReadAll(io.LimitReader(f, maxKeyFile))
	if err != nil {
		return nil, fmt.Errorf("ledger: load private key: %w", err)
	}
	if keyType(text) == PublicKeyType {
		return nil, fmt.Errorf("ledger: load private key: %s is a public key file; this needs the operator's private key (operator.key from posctl keys gen): %w", path, ErrKeyFile)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("ledger: load private key: %s: mode %v lets others read it (want 0600): %w", path, st.Mode().Perm(), ErrKeyFile)
	}
	k, err := ParsePrivateKey(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// keyType is the first word of a key file's text.
func keyType(text []byte) string {
	f := strings.Fields(string(text[:min(len(text), 64)]))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// GenerateKey draws an operator key pair from crypto/rand and writes it to
// dir/operator.key (mode 0600) and dir/operator.pub (0644). It refuses to overwrite
// either file; dir is created (0700) when missing.
func GenerateKey(dir string) (KeyID, error) {
	return generateKey(dir, rand.Reader)
}

func generateKey(dir string, random io.Reader) (KeyID, error) {
	pub, priv, err := ed25519.GenerateKey(random)
	if err != nil {
		return KeyID{}, fmt.Errorf("ledger: generate key: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return KeyID{}, fmt.Errorf("ledger: generate key: %w", err)
	}
	privPath := filepath.Join(dir, OperatorPrivateFile)
	pubPath := filepath.Join(dir, OperatorPublicFile)
	for _, p := range []string{privPath, pubPath} {
		if _, err := os.Lstat(p); err == nil {
			return KeyID{}, fmt.Errorf("ledger: generate key: %s exists, not overwritten: %w", p, fs.ErrExist)
		}
	}
	id := IDOf(pub)
	comment := "operator " + id.String()
	if err := writeNew(privPath, MarshalPrivateKey(priv, comment), 0o600); err != nil {
		return KeyID{}, err
	}
	if err := writeNew(pubPath, MarshalPublicKey(pub, comment), 0o644); err != nil {
		os.Remove(privPath)
		return KeyID{}, err
	}
	return id, nil
}

// writeNew creates path (failing if it exists), writes data and syncs it.
func writeNew(path string, data []byte, perm os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("ledger: write %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("ledger: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("ledger: write %s: %w", path, err)
	}
	return f.Close()
}

// TrustStore is the set of operator public keys a terminal pins. An empty store trusts
// nothing: every verification fails with ErrNoTrustedKey.
type TrustStore struct {
	keys map[KeyID]ed25519.PublicKey
}

// NewTrustStore trusts the given keys.
func NewTrustStore(keys ...ed25519.PublicKey) *TrustStore {
	t := &TrustStore{keys: make(map[KeyID]ed25519.PublicKey)}
	for _, k := range keys {
		if len(k) == ed25519.PublicKeySize {
			t.keys[IDOf(k)] = k
		}
	}
	return t
}

// LoadTrustStore trusts the public keys of the given paths: a key file, or a directory
// whose *.pub files are all read. Any unreadable or malformed key file is an error (a
// trust store is not guessed at).
func LoadTrustStore(paths ...string) (*TrustStore, error) {
	t := NewTrustStore()
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("ledger: trust store: %w", err)
		}
		files := []string{p}
		if st.IsDir() {
			files, err = filepath.Glob(filepath.Join(p, "*.pub"))
			if err != nil {
				return nil, fmt.Errorf("ledger: trust store: %w", err)
			}
			sort.Strings(files)
		}
		for _, f := range files {
			k, err := LoadPublicKey(f)
			if err != nil {
				return nil, fmt.Errorf("ledger: trust store: %w", err)
			}
			t.keys[IDOf(k)] = k
		}
	}
	return t, nil
}

// Len is the number of trusted keys.
func (t *TrustStore) Len() int {
	if t == nil {
		return 0
	}
	return len(t.keys)
}

// IDs lists the trusted keys' ids, sorted.
func (t *TrustStore) IDs() []KeyID {
	if t == nil {
		return nil
	}
	ids := make([]KeyID, 0, len(t.keys))
	for id := range t.keys {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return bytes.Compare(ids[i][:], ids[j][:]) < 0 })
	return ids
}

// verify checks sig over msg by the trusted key named id.
func (t *TrustStore) verify(what string, id KeyID, msg, sig []byte) error {
	if t.Len() == 0 {
		return fmt.Errorf("ledger: %s: %w", what, ErrNoTrustedKey)
	}
	k, ok := t.keys[id]
	if !ok {
		return fmt.Errorf("ledger: %s: key %v: %w", what, id, ErrUntrustedKey)
	}
	if !ed25519.Verify(k, msg, sig) {
		return fmt.Errorf("ledger: %s: key %v: %w", what, id, ErrBadSignature)
	}
	return nil
}
