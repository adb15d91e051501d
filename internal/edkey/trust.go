package edkey

import "crypto/ed25519"

// Domain is what a Store's keys are trusted for (firmware, the operator's ledgers): it
// turns a verdict into its package's error. Each trusting package declares its own, so
// that a store of one domain's keys is a type apart from another's: the compiler refuses
// operator keys where firmware keys are asked for.
type Domain interface {
	// Error is verdict v (never Valid) on a signature by key id, as the package's error.
	Error(v Verdict, id ID) error
}

// Store is the trust store of a Domain: the public keys a terminal accepts. An empty (or
// nil) store trusts nothing: every verification fails with D's NoKeys error. It is the
// one trust store of the tree: firmware/fwkey and validate/ledger name their own
// instance of it.
type Store[D Domain] struct {
	keys Set
}

// NewStore trusts the given keys (keys of the wrong size are ignored).
func NewStore[D Domain](pubs ...ed25519.PublicKey) *Store[D] {
	return &Store[D]{keys: NewSet(pubs...)}
}

// StoreOf trusts exactly the keys of s (a statement's set).
func StoreOf[D Domain](s Set) *Store[D] {
	u := &Store[D]{keys: make(Set, len(s))}
	for id, k := range s {
		u.keys[id] = k
	}
	return u
}

// LoadStore trusts the public keys of family f at the given paths: key files, or
// directories whose *.pub files are all read. Any unreadable or malformed key file is an
// error (a trust store is not guessed at).
func LoadStore[D Domain](f Family, paths ...string) (*Store[D], error) {
	s, err := f.LoadSet(paths...)
	if err != nil {
		return nil, err
	}
	return &Store[D]{keys: s}, nil
}

// set is t's keys (nil for a nil store).
func (t *Store[D]) set() Set {
	if t == nil {
		return nil
	}
	return t.keys
}

// Len is the number of trusted keys.
func (t *Store[D]) Len() int { return len(t.set()) }

// IDs lists the trusted keys' ids, sorted.
func (t *Store[D]) IDs() []ID {
	if t == nil {
		return nil
	}
	return t.keys.IDs()
}

// Verify checks sig over msg by the trusted key named id: nil, or D's error.
func (t *Store[D]) Verify(id ID, msg, sig []byte) error {
	return verdictErr[D](t.set().Verify(id, msg, sig), id)
}

// VerifyStatement checks that statement s (of kind k) was signed by a key of t.
func (t *Store[D]) VerifyStatement(s *Statement, k StatementKind) error {
	return verdictErr[D](s.Verify(t.set(), k), s.SignerID())
}

// Union trusts the keys of t and of other.
func (t *Store[D]) Union(other *Store[D]) *Store[D] {
	u := NewStore[D]()
	for _, s := range []*Store[D]{t, other} {
		for id, k := range s.set() {
			u.keys[id] = k
		}
	}
	return u
}

func verdictErr[D Domain](v Verdict, id ID) error {
	if v == Valid {
		return nil
	}
	var d D
	return d.Error(v, id)
}
