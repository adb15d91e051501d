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

// operatorKeys is the trust domain of the operator's keys (edkey.Domain).
type operatorKeys struct{}

// Error maps a key set's verdict to the package's errors.
func (operatorKeys) Error(v edkey.Verdict, id KeyID) error {
	switch v {
	case edkey.NoKeys:
		return ErrNoTrustedKey
	case edkey.Untrusted:
		return fmt.Errorf("key %v: %w", id, ErrUntrustedKey)
	default:
		return fmt.Errorf("key %v: %w", id, ErrBadSignature)
	}
}

// TrustStore is the set of operator public keys a terminal pins: the tree's one trust
// store (edkey.Store), of operator keys only (firmware keys are another type). An empty
// store trusts nothing: every verification fails with ErrNoTrustedKey.
type TrustStore = edkey.Store[operatorKeys]

// NewTrustStore trusts the given keys.
func NewTrustStore(pubs ...ed25519.PublicKey) *TrustStore {
	return edkey.NewStore[operatorKeys](pubs...)
}

// LoadTrustStore trusts the public keys of the given paths: a key file, or a directory
// whose *.pub files are all read. Any unreadable or malformed key file is an error (a
// trust store is not guessed at).
func LoadTrustStore(paths ...string) (*TrustStore, error) {
	return edkey.LoadStore[operatorKeys](keys, paths...)
}

// verifyBy checks sig over msg by t's key named id; what names the signed thing in the
// error.
func verifyBy(t *TrustStore, what string, id KeyID, msg, sig []byte) error {
	if err := t.Verify(id, msg, sig); err != nil {
		return fmt.Errorf("ledger: %s: %w", what, err)
	}
	return nil
}
