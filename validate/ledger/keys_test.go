package ledger

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenerateKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	id, err := GenerateKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	privPath, pubPath := filepath.Join(dir, OperatorPrivateFile), filepath.Join(dir, OperatorPublicFile)
	for p, want := range map[string]os.FileMode{privPath: 0o600, pubPath: 0o644} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, st.Mode().Perm(), want)
		}
	}
	priv, err := LoadPrivateKey(privPath)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := LoadPublicKey(pubPath)
	if err != nil {
		t.Fatal(err)
	}
	if !pub.Equal(priv.Public()) || IDOf(pub) != id {
		t.Fatal("the key files are not one pair")
	}
	text, _ := os.ReadFile(pubPath)
	if !strings.HasPrefix(string(text), PublicKeyType+" ") || !strings.HasSuffix(string(text), " operator "+id.String()+"\n") || bytes.Count(text, []byte("\n")) != 1 {
		t.Errorf("public key file: %q", text)
	}
	before, _ := os.ReadFile(privPath)
	if _, err := GenerateKey(dir); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second GenerateKey: %v, want fs.ErrExist", err)
	}
	if after, _ := os.ReadFile(privPath); !bytes.Equal(before, after) {
		t.Fatal("private key overwritten")
	}
	// A private key readable by others is refused.
	os.Chmod(privPath, 0o644)
	if _, err := LoadPrivateKey(privPath); !errors.Is(err, ErrKeyFile) {
		t.Fatalf("private key mode 0644: %v", err)
	}
	// Trust store from the directory.
	ts, err := LoadTrustStore(dir)
	if err != nil || ts.Len() != 1 || ts.IDs()[0] != id {
		t.Fatalf("trust store: %v, %v", ts.IDs(), err)
	}
}

func TestParseKeyErrors(t *testing.T) {
	pub, priv := testKey(t)
	good := MarshalPublicKey(pub, "x")
	if k, err := ParsePublicKey(good); err != nil || !k.Equal(pub) {
		t.Fatalf("ParsePublicKey: %v", err)
	}
	if k, err := ParsePrivateKey(MarshalPrivateKey(priv, "")); err != nil || !k.Equal(priv) {
		t.Fatalf("ParsePrivateKey: %v", err)
	}
	for _, text := range []string{
		"",
		"\n",
		PublicKeyType,
		PublicKeyType + " !!!",
		PublicKeyType + " AAAA",
		"ssh-ed25519 " + strings.Fields(string(good))[1],
		PrivateKeyType + " " + strings.Fields(string(good))[1],
		string(good) + string(good),
	} {
		if _, err := ParsePublicKey([]byte(text)); !errors.Is(err, ErrKeyFile) {
			t.Errorf("ParsePublicKey(%q): %v, want ErrKeyFile", text, err)
		}
	}
	if _, err := ParsePrivateKey(good); !errors.Is(err, ErrKeyFile) {
		t.Error("a public key read as a private key")
	}
	if ts, err := LoadTrustStore(t.TempDir()); err != nil || ts.Len() != 0 {
		t.Errorf("empty directory: %d keys, %v", ts.Len(), err)
	}
	bad := filepath.Join(t.TempDir(), "bad.pub")
	os.WriteFile(bad, []byte("nonsense\n"), 0o644)
	if _, err := LoadTrustStore(filepath.Dir(bad)); !errors.Is(err, ErrKeyFile) {
		t.Errorf("malformed key in the trust store: %v", err)
	}
	if _, err := LoadTrustStore(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("missing trust store accepted")
	}
	if NewTrustStore(ed25519.PublicKey{1, 2}).Len() != 0 {
		t.Error("short key trusted")
	}
}
