package edkey

import (
	"bytes"
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Set is a family's trusted public keys by id. The zero (nil) Set trusts nothing.
type Set map[ID]ed25519.PublicKey

// NewSet trusts the given keys (keys of the wrong size are ignored).
func NewSet(keys ...ed25519.PublicKey) Set {
	s := make(Set)
	for _, k := range keys {
		if len(k) == ed25519.PublicKeySize {
			s[IDOf(k)] = k
		}
	}
	return s
}

// LoadSet trusts the public keys of the given paths: a key file, or a directory whose
// *.pub files are all read. Any unreadable or malformed key file is an error: a trust
// store is not guessed at.
func (f Family) LoadSet(paths ...string) (Set, error) {
	s := NewSet()
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: trust store: %w", f.Name, err)
		}
		files := []string{p}
		if st.IsDir() {
			if files, err = filepath.Glob(filepath.Join(p, "*.pub")); err != nil {
				return nil, fmt.Errorf("%s: trust store: %w", f.Name, err)
			}
			slices.Sort(files)
		}
		for _, file := range files {
			k, err := f.LoadPublic(file)
			if err != nil {
				return nil, fmt.Errorf("%s: trust store: %w", f.Name, err)
			}
			s[IDOf(k)] = k
		}
	}
	return s, nil
}

// IDs lists the trusted keys' ids, sorted.
func (s Set) IDs() []ID {
	ids := make([]ID, 0, len(s))
	for id := range s {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b ID) int { return bytes.Compare(a[:], b[:]) })
	return ids
}

// Verdict is the outcome of Set.Verify.
type Verdict uint8

// Verdicts: each family maps them to its own errors.
const (
	Valid        Verdict = iota
	NoKeys               // the set is empty: nothing is trusted
	Untrusted            // no trusted key has that id
	BadSignature         // the key is trusted, the signature does not verify
)

// Verify checks sig over msg by the trusted key named id.
func (s Set) Verify(id ID, msg, sig []byte) Verdict {
	if len(s) == 0 {
		return NoKeys
	}
	k, ok := s[id]
	if !ok {
		return Untrusted
	}
	if !ed25519.Verify(k, msg, sig) {
		return BadSignature
	}
	return Valid
}
