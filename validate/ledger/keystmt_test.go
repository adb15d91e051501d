package ledger

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func newKey(t testing.TB) (ed25519.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	return pub, priv
}

func signStatement(t testing.TB, version uint64, keys []ed25519.PublicKey, priv ed25519.PrivateKey) []byte {
	t.Helper()
	b, err := SignKeyStatement(version, keys, priv)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestKeyStatementRoundTrip(t *testing.T) {
	pubA, privA := newKey(t)
	pubB, _ := newKey(t)
	text := signStatement(t, 3, []ed25519.PublicKey{pubB, pubA}, privA)
	s, err := ParseKeyStatement(text)
	if err != nil {
		t.Fatal(err)
	}
	if s.Version() != 3 || len(s.Keys()) != 2 || s.Signer() != IDOf(pubA) {
		t.Fatalf("parsed %d, %d keys, signer %v", s.Version(), len(s.Keys()), s.Signer())
	}
	if again := signStatement(t, 3, []ed25519.PublicKey{pubA, pubB}, privA); !bytes.Equal(again, text) {
		t.Error("one set has two texts")
	}
	if err := s.Verify(NewTrustStore(pubA)); err != nil {
		t.Error(err)
	}
	if err := s.Verify(NewTrustStore(pubB)); !errors.Is(err, ErrUntrustedKey) {
		t.Errorf("signed by a key the store does not hold: %v", err)
	}
	if err := s.Verify(nil); !errors.Is(err, ErrNoTrustedKey) {
		t.Errorf("no trust: %v", err)
	}
	if tr := s.TrustStore(); tr.Len() != 2 {
		t.Errorf("trust store of %d keys", tr.Len())
	}
}

func TestKeyStatementRefusals(t *testing.T) {
	pubA, privA := newKey(t)
	pubB, _ := newKey(t)
	pubC, _ := newKey(t)
	good := signStatement(t, 2, []ed25519.PublicKey{pubA, pubB}, privA)
	lines := strings.SplitAfter(string(good), "\n")
	edit := func(i int, s string) []byte {
		l := append([]string(nil), lines...)
		l[i] = s
		return []byte(strings.Join(l, ""))
	}
	for name, text := range map[string][]byte{
		"empty":            nil,
		"bare key":         MarshalPublicKey(pubA, "x"),
		"no final newline": good[:len(good)-1],
		"version edited":   edit(1, "version 9\n"),
		"version 0":        edit(1, "version 0\n"),
		"leading zero":     edit(1, "version 02\n"),
		"key dropped":      edit(2, ""),
		"key swapped":      edit(2, string(MarshalPublicKey(pubC, IDOf(pubC).String()))),
		"comment changed":  edit(2, strings.Replace(lines[2], " ", "  ", 1)),
		"CRLF":             bytes.ReplaceAll(good, []byte("\n"), []byte("\r\n")),
		"trailing data":    append(append([]byte(nil), good...), "x\n"...),
		"format 2":         edit(0, KeyStatementType+" 2\n"),
		"firmware type":    edit(0, "pos-firmware-keys 1\n"),
		"too big":          bytes.Repeat([]byte("a"), MaxKeyStatementSize+1),
	} {
		if _, err := ParseKeyStatement(text); !errors.Is(err, ErrKeyStatement) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := SignKeyStatement(1, nil, privA); !errors.Is(err, ErrKeyStatement) {
		t.Errorf("empty set signed: %v", err)
	}
	if _, err := SignKeyStatement(1, []ed25519.PublicKey{pubA, pubA}, privA); !errors.Is(err, ErrKeyStatement) {
		t.Errorf("duplicate signed: %v", err)
	}
}

// A signature over a statement's bytes is domain-separated: the same body signed without
// the domain (as a ledger or status signature would be made) does not verify.
func TestKeyStatementDomainSeparated(t *testing.T) {
	pubA, privA := newKey(t)
	good := signStatement(t, 1, []ed25519.PublicKey{pubA}, privA)
	i := bytes.LastIndex(good[:len(good)-1], []byte("\n")) + 1
	body := good[:i]
	raw := fmt.Sprintf("%ssignature %s\n", body, base64.StdEncoding.EncodeToString(ed25519.Sign(privA, body)))
	if _, err := ParseKeyStatement([]byte(raw)); !errors.Is(err, ErrKeyStatement) {
		t.Errorf("a signature without the domain accepted: %v", err)
	}
}

func TestInstallKeyStatement(t *testing.T) {
	pubA, privA := newKey(t)
	pubB, privB := newKey(t)
	_, privX := newKey(t)
	dir := t.TempDir()
	path := filepath.Join(dir, KeyStatementFile)
	put := func(b []byte) string {
		p := filepath.Join(t.TempDir(), "in.stmt")
		os.WriteFile(p, b, 0o644)
		return p
	}
	anchor := NewTrustStore(pubA)
	// Signed by an untrusted key: refused, nothing written.
	if _, err := InstallKeyStatement(path, put(signStatement(t, 1, []ed25519.PublicKey{pubB}, privX)), anchor); !errors.Is(err, ErrUntrustedKey) {
		t.Fatalf("untrusted signer: %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("a refused statement was written")
	}
	v2 := signStatement(t, 2, []ed25519.PublicKey{pubB}, privA)
	res, err := InstallKeyStatement(path, put(v2), anchor)
	if err != nil || res.Version != 2 || res.HadPrevious {
		t.Fatalf("install: %+v %v", res, err)
	}
	tr, err := LoadTrust(path, "/nonexistent/anchor.pub")
	if err != nil || tr.Len() != 1 || tr.IDs()[0] != IDOf(pubB) {
		t.Fatalf("trust in force: %v %v", tr.IDs(), err)
	}
	// Replayed or older: refused, even signed by a key in force.
	for _, v := range []uint64{1, 2} {
		if _, err := InstallKeyStatement(path, put(signStatement(t, v, []ed25519.PublicKey{pubA}, privB)), tr); !errors.Is(err, ErrOlderVersion) {
			t.Errorf("version %d over 2: %v", v, err)
		}
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, v2) {
		t.Fatal("a refused statement changed the installed one")
	}
	// The key it replaced no longer signs.
	if _, err := InstallKeyStatement(path, put(signStatement(t, 3, []ed25519.PublicKey{pubA}, privA)), tr); !errors.Is(err, ErrUntrustedKey) {
		t.Errorf("retired key signed a statement: %v", err)
	}
	if res, err := InstallKeyStatement(path, put(signStatement(t, 3, []ed25519.PublicKey{pubA, pubB}, privB)), tr); err != nil || res.Previous != 2 {
		t.Errorf("rotation by the key in force: %+v %v", res, err)
	}
	// A damaged installed statement is never a fallback to the anchors.
	os.WriteFile(path, v2[:len(v2)-5], 0o644)
	if _, err := LoadTrust(path, filepath.Join(dir, "nothing")); !errors.Is(err, ErrKeyStatement) {
		t.Errorf("damaged statement: %v", err)
	}
}

// FuzzKeyStatement: any text is refused with ErrKeyStatement or parses into a statement
// that signs back to the same bytes' layout (same keys, version and signer).
func FuzzKeyStatement(f *testing.F) {
	for _, s := range keyStatementSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		s, err := ParseKeyStatement(text)
		if err != nil {
			if !errors.Is(err, ErrKeyStatement) {
				t.Fatalf("unwrapped error: %v", err)
			}
			return
		}
		if s.Version() == 0 || len(s.Keys()) == 0 || len(s.Keys()) > 16 {
			t.Fatalf("accepted version %d with %d keys", s.Version(), len(s.Keys()))
		}
		if err := s.Verify(NewTrustStore()); !errors.Is(err, ErrNoTrustedKey) {
			t.Fatalf("verified against no key: %v", err)
		}
	})
}

// keyStatementSeeds are statements signed by a key drawn now (public keys and
// signatures only: nothing private is checked in).
func keyStatementSeeds(t testing.TB) [][]byte {
	pubA, privA := newKey(t)
	pubB, _ := newKey(t)
	one := signStatement(t, 1, []ed25519.PublicKey{pubA}, privA)
	two := signStatement(t, 7, []ed25519.PublicKey{pubA, pubB}, privA)
	return [][]byte{one, two, one[:len(one)/2], []byte(KeyStatementType + " 1\nversion 1\nsigner AAAA\nsignature AAAA\n\n")}
}

// TestWriteKeyStatementCorpus rewrites testdata/fuzz/FuzzKeyStatement when run with
// -run TestWriteKeyStatementCorpus -update-corpus.
func TestWriteKeyStatementCorpus(t *testing.T) {
	if !*updateCorpus {
		t.Skip("run with -update-corpus to rewrite the seed corpus")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzKeyStatement")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, s := range keyStatementSeeds(t) {
		text := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%d", i+1)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
