package fwkey

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
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
	keys map[ID]ed25519.PublicKey
}

// NewTrustStore trusts the given keys.
func NewTrustStore(keys ...ed25519.PublicKey) *TrustStore {
	t := &TrustStore{keys: make(map[ID]ed25519.PublicKey)}
	for _, k := range keys {
		if len(k) == ed25519.PublicKeySize {
			t.keys[IDOf(k)] = k
		}
	}
	return t
}

// LoadTrustStore trusts the firmware public keys of the given paths: key files, or
// directories whose *.pub files are all read. Any malformed file is an error.
func LoadTrustStore(paths ...string) (*TrustStore, error) {
	t := NewTrustStore()
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("fwkey: trust store: %w", err)
		}
		files := []string{p}
		if st.IsDir() {
			files, _ = filepath.Glob(filepath.Join(p, "*.pub"))
			sort.Strings(files)
		}
		for _, f := range files {
			k, err := LoadPublic(f)
			if err != nil {
				return nil, fmt.Errorf("fwkey: trust store: %w", err)
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

// Verify checks sig over msg by the trusted key named id.
func (t *TrustStore) Verify(id ID, msg, sig []byte) error {
	if t.Len() == 0 {
		return ErrNoTrustedKey
	}
	k, ok := t.keys[id]
	if !ok {
		return fmt.Errorf("key %v: %w", id, ErrUntrusted)
	}
	if !ed25519.Verify(k, msg, sig) {
		return fmt.Errorf("key %v: %w", id, ErrBadSignature)
	}
	return nil
}
