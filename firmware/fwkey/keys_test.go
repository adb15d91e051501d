package fwkey

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestGenerateLoadVerify(t *testing.T) {
	dir := t.TempDir()
	id, err := GenerateFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := GenerateFiles(dir); err == nil {
		t.Fatal("GenerateFiles overwrote existing keys")
	}
	priv, err := LoadPrivate(filepath.Join(dir, PrivateFile))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := LoadPublic(filepath.Join(dir, PublicFile))
	if err != nil {
		t.Fatal(err)
	}
	if IDOf(pub) != id {
		t.Fatal("id mismatch")
	}
	ts, err := LoadTrustStore(dir)
	if err != nil || ts.Len() != 1 {
		t.Fatalf("trust store: %v, %d keys", err, ts.Len())
	}
	msg := []byte("bundle")
	sig := ed25519.Sign(priv, msg)
	if err := ts.Verify(id, msg, sig); err != nil {
		t.Fatal(err)
	}
	sig[0] ^= 1
	if err := ts.Verify(id, msg, sig); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("tampered signature: %v", err)
	}
	if err := ts.Verify(ID{1}, msg, sig); !errors.Is(err, ErrUntrusted) {
		t.Fatalf("unknown key: %v", err)
	}
	if err := NewTrustStore().Verify(id, msg, sig); !errors.Is(err, ErrNoTrustedKey) {
		t.Fatalf("empty store: %v", err)
	}
	os.Chmod(filepath.Join(dir, PrivateFile), 0o644)
	if _, err := LoadPrivate(filepath.Join(dir, PrivateFile)); !errors.Is(err, ErrKeyFile) {
		t.Fatalf("world-readable private key: %v", err)
	}
}

// A ledger (operator) key file is never a firmware key. The other direction (the ledger
// refusing firmware key files) is tested in cmd/posctl, which sees both packages.
func TestLedgerKeysRefused(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	ledgerPub := []byte("pos-ed25519-public " + base64.StdEncoding.EncodeToString(pub) + " operator\n")
	ledgerPriv := []byte("pos-ed25519-private " + base64.StdEncoding.EncodeToString(priv.Seed()) + " operator\n")
	if _, err := ParsePublic(ledgerPub); !errors.Is(err, ErrKeyFile) {
		t.Fatalf("ledger public key accepted as firmware key: %v", err)
	}
	if _, err := ParsePrivate(ledgerPriv); !errors.Is(err, ErrKeyFile) {
		t.Fatalf("ledger private key accepted as firmware key: %v", err)
	}
	if _, err := ParsePublic(MarshalPrivate(priv, "")); !errors.Is(err, ErrKeyFile) {
		t.Fatal("private key file accepted as public key")
	}
	if _, err := ParsePublic(MarshalPublic(pub, "ok")); err != nil {
		t.Fatal(err)
	}
}

func FuzzParse(f *testing.F) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	f.Add(MarshalPublic(pub, "c"))
	f.Add(MarshalPrivate(priv, "c"))
	f.Add([]byte("pos-ed25519-public AAAA\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if k, err := ParsePublic(b); err == nil && len(k) != ed25519.PublicKeySize {
			t.Fatal("bad length accepted")
		}
		if k, err := ParsePrivate(b); err == nil && len(k) != ed25519.PrivateKeySize {
			t.Fatal("bad length accepted")
		}
	})
}
