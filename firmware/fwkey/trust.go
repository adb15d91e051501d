package fwkey

import (
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/packterm/pos/internal/edkey"
)

// Verification errors.
var (
	ErrNoTrustedKey = errors.New("fwkey: no trusted firmware key")
	ErrUntrusted    = errors.New("fwkey: signed by an untrusted key")
	ErrBadSignature = errors.New("fwkey: bad signature")
)

// firmwareKeys is the trust domain of firmware signing keys (edkey.Domain).
type firmwareKeys struct{}

// Error maps a key set's verdict to the package's errors.
func (firmwareKeys) Error(v edkey.Verdict, id ID) error {
	switch v {
	case edkey.NoKeys:
		return ErrNoTrustedKey
	case edkey.Untrusted:
		return fmt.Errorf("key %v: %w", id, ErrUntrusted)
	default:
		return fmt.Errorf("key %v: %w", id, ErrBadSignature)
	}
}

// TrustStore is the set of firmware public keys a terminal accepts: the tree's one trust
// store (edkey.Store), of firmware keys only (operator keys are another type). An empty
// (or nil) store trusts nothing. Verify checks a signature; Union trusts the keys of two
// stores (posboot checks the slots already installed against the anchors and the
// installed statement together, so that firmware installed under a key a statement has
// since retired still boots; new bundles are checked against the trust in force alone).
type TrustStore = edkey.Store[firmwareKeys]

// NewTrustStore trusts the given keys.
func NewTrustStore(pubs ...ed25519.PublicKey) *TrustStore {
	return edkey.NewStore[firmwareKeys](pubs...)
}

// LoadTrustStore trusts the firmware public keys of the given paths: key files, or
// directories whose *.pub files are all read. Any malformed file is an error.
func LoadTrustStore(paths ...string) (*TrustStore, error) {
	return edkey.LoadStore[firmwareKeys](keys, paths...)
}
