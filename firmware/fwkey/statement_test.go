package fwkey

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite testdata/fuzz/FuzzStatement")

func sign(t testing.TB, version uint64, priv ed25519.PrivateKey, keys ...ed25519.PublicKey) []byte {
	t.Helper()
	b, err := SignStatement(version, keys, priv)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestInstallStatement(t *testing.T) {
	pubA, privA, _ := ed25519.GenerateKey(nil)
	pubB, privB, _ := ed25519.GenerateKey(nil)
	_, privX, _ := ed25519.GenerateKey(nil)
	path := filepath.Join(t.TempDir(), StatementFile)
	put := func(b []byte) string {
		p := filepath.Join(t.TempDir(), "in.stmt")
		os.WriteFile(p, b, 0o644)
		return p
	}
	anchor := NewTrustStore(pubA)
	if _, err := InstallStatement(path, put(sign(t, 1, privX, pubB)), anchor); !errors.Is(err, ErrUntrusted) {
		t.Fatalf("untrusted signer: %v", err)
	}
	if _, err := InstallStatement(path, put(MarshalPublic(pubB, "bare")), anchor); !errors.Is(err, ErrStatement) {
		t.Fatalf("bare key file: %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("a refused statement was written")
	}
	v2 := sign(t, 2, privA, pubB)
	if res, err := InstallStatement(path, put(v2), anchor); err != nil || res.Version != 2 {
		t.Fatalf("install: %+v %v", res, err)
	}
	tr, err := LoadTrust(path, "/nonexistent")
	if err != nil || tr.Len() != 1 {
		t.Fatalf("trust in force: %v", err)
	}
	if err := tr.Verify(IDOf(pubA), nil, nil); !errors.Is(err, ErrUntrusted) {
		t.Errorf("the retired key is still trusted: %v", err)
	}
	if _, err := InstallStatement(path, put(sign(t, 2, privB, pubA)), tr); !errors.Is(err, ErrOlderVersion) {
		t.Errorf("replayed version: %v", err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, v2) {
		t.Fatal("a refused statement changed the installed one")
	}
	os.WriteFile(path, append(v2[:len(v2)-3], '\n'), 0o644)
	if _, err := LoadTrust(path, "/nonexistent"); !errors.Is(err, ErrStatement) {
		t.Errorf("damaged statement: %v", err)
	}
}

// An operator (ledger) key statement is never a firmware one, even signed by the same
// Ed25519 key: the type and the signature's domain differ.
func TestOperatorStatementRefused(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	good := sign(t, 1, priv, pub)
	asOperator := strings.Replace(string(good), StatementType, "pos-operator-keys", 1)
	asOperator = strings.ReplaceAll(asOperator, PublicType, "pos-ed25519-public")
	if _, err := ParseStatement([]byte(asOperator)); !errors.Is(err, ErrStatement) {
		t.Errorf("operator statement parsed as firmware: %v", err)
	}
}

func FuzzStatement(f *testing.F) {
	for _, s := range statementSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		s, err := ParseStatement(text)
		if err != nil {
			if !errors.Is(err, ErrStatement) {
				t.Fatalf("unwrapped error: %v", err)
			}
			return
		}
		if s.Version() == 0 || len(s.Keys()) == 0 {
			t.Fatalf("accepted version %d with %d keys", s.Version(), len(s.Keys()))
		}
		if err := s.Verify(nil); !errors.Is(err, ErrNoTrustedKey) {
			t.Fatalf("verified against no key: %v", err)
		}
	})
}

func statementSeeds(t testing.TB) [][]byte {
	pubA, privA, _ := ed25519.GenerateKey(nil)
	pubB, _, _ := ed25519.GenerateKey(nil)
	one := sign(t, 1, privA, pubA)
	return [][]byte{one, sign(t, 4, privA, pubA, pubB), one[:len(one)-20], []byte(StatementType + " 1\nversion 1\n")}
}

func TestWriteStatementCorpus(t *testing.T) {
	if !*updateCorpus {
		t.Skip("run with -update-corpus to rewrite the seed corpus")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzStatement")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, s := range statementSeeds(t) {
		text := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%d", i+1)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
