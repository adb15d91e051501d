package edkey

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// testDomain maps each verdict to an error naming it.
type testDomain struct{}

var errVerdict = errors.New("verdict")

func (testDomain) Error(v Verdict, id ID) error { return fmt.Errorf("%d %v: %w", v, id, errVerdict) }

func wantVerdict(t *testing.T, err error, v Verdict) {
	t.Helper()
	if v == Valid {
		if err != nil {
			t.Fatalf("error %v, want none", err)
		}
		return
	}
	if !errors.Is(err, errVerdict) || err.Error()[0] != byte('0'+v) {
		t.Fatalf("error %v, want verdict %d", err, v)
	}
}

// TestStore: a store verifies by its keys alone, maps each verdict through its domain,
// trusts nothing when empty or nil, and Union and StoreOf copy (a store never shares
// its keys with another).
func TestStore(t *testing.T) {
	pubA, privA, _ := ed25519.GenerateKey(nil)
	pubB, privB, _ := ed25519.GenerateKey(nil)
	msg := []byte("firmware")
	sigA, sigB := ed25519.Sign(privA, msg), ed25519.Sign(privB, msg)

	a := NewStore[testDomain](pubA)
	wantVerdict(t, a.Verify(IDOf(pubA), msg, sigA), Valid)
	wantVerdict(t, a.Verify(IDOf(pubB), msg, sigB), Untrusted)
	wantVerdict(t, a.Verify(IDOf(pubA), msg, sigB), BadSignature)
	var none *Store[testDomain]
	wantVerdict(t, none.Verify(IDOf(pubA), msg, sigA), NoKeys)
	wantVerdict(t, NewStore[testDomain]().Verify(IDOf(pubA), msg, sigA), NoKeys)
	if none.Len() != 0 || none.IDs() != nil || a.Len() != 1 {
		t.Fatalf("Len %d %d, IDs %v", none.Len(), a.Len(), none.IDs())
	}

	u := a.Union(NewStore[testDomain](pubB))
	wantVerdict(t, u.Verify(IDOf(pubB), msg, sigB), Valid)
	wantVerdict(t, a.Verify(IDOf(pubB), msg, sigB), Untrusted) // a unchanged
	if u.Len() != 2 || none.Union(nil).Len() != 0 {
		t.Fatalf("union of %d keys", u.Len())
	}
	set := NewSet(pubA)
	s := StoreOf[testDomain](set)
	delete(set, IDOf(pubA))
	wantVerdict(t, s.Verify(IDOf(pubA), msg, sigA), Valid)

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "b.pub"), fam.MarshalPublic(pubB, ""), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := LoadStore[testDomain](fam, dir)
	if err != nil {
		t.Fatal(err)
	}
	wantVerdict(t, l.Verify(IDOf(pubB), msg, sigB), Valid)
	if _, err := LoadStore[testDomain](fam, filepath.Join(dir, "missing")); err == nil {
		t.Fatal("store from a missing path: no error")
	}
}
