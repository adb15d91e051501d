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

// TrustStore is the set of firmware public keys a terminal accepts. An empty (or nil)
// store trusts nothing.
type TrustStore struct {
	keys edkey.Set
}

// NewTrustStore trusts the given keys.
func NewTrustStore(pubs ...ed25519.PublicKey) *TrustStore {
	return &TrustStore{keys: edkey.NewSet(pubs...)}
}

// LoadTrustStore trusts the firmware public keys of the given paths: key files, or
// directories whose *.pub files are all read. Any malformed file is an error.
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

// Verify checks sig over msg by the trusted key named id.
func (t *TrustStore) Verify(id ID, msg, sig []byte) error {
	var s edkey.Set
	if t != nil {
		s = t.keys
	}
	return verdict(id, s.Verify(id, msg, sig))
}

// verdict maps a key set's verdict to the package's errors.
func verdict(id ID, v edkey.Verdict) error {
	switch v {
	case edkey.NoKeys:
		return ErrNoTrustedKey
	case edkey.Untrusted:
		return fmt.Errorf("key %v: %w", id, ErrUntrusted)
	case edkey.BadSignature:
		return fmt.Errorf("key %v: %w", id, ErrBadSignature)
	}
	return nil
}

// Union trusts the keys of t and of other. posboot checks the slots already installed
// against the anchors and the installed statement together, so that firmware installed
// under a key a statement has since retired still boots (new bundles are checked against
// the trust in force alone).
func (t *TrustStore) Union(other *TrustStore) *TrustStore {
	u := NewTrustStore()
	for _, s := range []*TrustStore{t, other} {
		if s != nil {
			for id, k := range s.keys {
				u.keys[id] = k
			}
		}
	}
	return u
}
