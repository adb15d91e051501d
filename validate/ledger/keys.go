package ledger

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"

	"github.com/packterm/pos/internal/edkey"
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

// keys is the family of operator (and journal device) key files.
var keys = edkey.Family{
	Name: "ledger: key", Public: PublicKeyType, Private: PrivateKeyType, Err: ErrKeyFile,
	Others:      map[string]string{"pos-firmware-": "a firmware key, not an operator (ledger) key"},
	NeedPrivate: "this needs the operator's private key (operator.key from posctl keys gen)",
}

// KeyID names a public key in files and messages: the first 8 bytes of its SHA-256.
type KeyID = edkey.ID

// IDOf returns the key id of pub.
func IDOf(pub ed25519.PublicKey) KeyID { return edkey.IDOf(pub) }

// MarshalPublicKey returns the key file text of pub: "pos-ed25519-public BASE64 COMMENT\n".
func MarshalPublicKey(pub ed25519.PublicKey, comment string) []byte {
	return keys.MarshalPublic(pub, comment)
}

// MarshalPrivateKey returns the key file text of priv; it holds the 32-byte seed.
func MarshalPrivateKey(priv ed25519.PrivateKey, comment string) []byte {
	return keys.MarshalPrivate(priv, comment)
}

// ParsePublicKey reads a public key file's text.
func ParsePublicKey(text []byte) (ed25519.PublicKey, error) { return keys.ParsePublic(text) }

// ParsePrivateKey reads a private key file's text.
func ParsePrivateKey(text []byte) (ed25519.PrivateKey, error) { return keys.ParsePrivate(text) }

// LoadPublicKey reads a public key file (a regular file: anything else is refused before
// it is read). A private key file given instead is refused, saying so.
func LoadPublicKey(path string) (ed25519.PublicKey, error) { return keys.LoadPublic(path) }

// LoadPrivateKey reads a private key file. It refuses a file that others than its owner
// may read (mode & 0o077 != 0), as ssh does, and a public key file given instead, saying
// so.
func LoadPrivateKey(path string) (ed25519.PrivateKey, error) { return keys.LoadPrivate(path) }

// GenerateKey draws an operator key pair from crypto/rand and writes it to
// dir/operator.key (mode 0600) and dir/operator.pub (0644). It refuses to overwrite
// either file; dir is created (0700) when missing.
func GenerateKey(dir string) (KeyID, error) {
	return keys.Generate(dir, OperatorPrivateFile, OperatorPublicFile, "operator", rand.Reader)
}

// TrustStore is the set of operator public keys a terminal pins. An empty store trusts
// nothing: every verification fails with ErrNoTrustedKey.
type TrustStore struct {
	keys edkey.Set
}

// NewTrustStore trusts the given keys.
func NewTrustStore(pubs ...ed25519.PublicKey) *TrustStore {
	return &TrustStore{keys: edkey.NewSet(pubs...)}
}

// LoadTrustStore trusts the public keys of the given paths: a key file, or a directory
// whose *.pub files are all read. Any unreadable or malformed key file is an error (a
// trust store is not guessed at).
func LoadTrustStore(paths ...string) (*TrustStore, error) {
	s, err := keys.LoadSet(paths...)
	if err != nil {
		return nil, err
	}
	return &TrustStore{keys: s}, nil
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
	return t.keys.IDs()
}

// verify checks sig over msg by the trusted key named id.
func (t *TrustStore) verify(what string, id KeyID, msg, sig []byte) error {
	var s edkey.Set
	if t != nil {
		s = t.keys
	}
	return verdict(what, id, s.Verify(id, msg, sig))
}

// verdict maps a key set's verdict to the package's errors.
func verdict(what string, id KeyID, v edkey.Verdict) error {
	switch v {
	case edkey.NoKeys:
		return fmt.Errorf("ledger: %s: %w", what, ErrNoTrustedKey)
	case edkey.Untrusted:
		return fmt.Errorf("ledger: %s: key %v: %w", what, id, ErrUntrustedKey)
	case edkey.BadSignature:
		return fmt.Errorf("ledger: %s: key %v: %w", what, id, ErrBadSignature)
	}
	return nil
}
