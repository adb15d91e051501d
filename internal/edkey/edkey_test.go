package edkey

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/packterm/pos/internal/regularfile"
)

var errTest = errors.New("bad test key")

var fam = Family{
	Name: "test", Public: "t-public", Private: "t-private", Err: errTest,
	Others:      map[string]string{"other-": "another family's key"},
	NeedPrivate: "give t.key",
}

func TestRoundTripAndRefusals(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	if k, err := fam.ParsePublic(fam.MarshalPublic(pub, "a  b\nc")); err != nil || !bytes.Equal(k, pub) {
		t.Fatalf("public round trip: %v", err)
	}
	if k, err := fam.ParsePrivate(fam.MarshalPrivate(priv, "")); err != nil || !k.Equal(priv) {
		t.Fatalf("private round trip: %v", err)
	}
	for name, c := range map[string]struct{ text, says string }{
		"private as public": {string(fam.MarshalPrivate(priv, "")), "a t-private where a t-public is wanted"},
		"other family":      {"other-public AAAA\n", "another family's key"},
		"unknown type":      {"x-public AAAA\n", "unknown key type"},
		"two lines":         {string(fam.MarshalPublic(pub, "")) + "t-public AAAA\n", "more than one line"},
		"bad base64":        {"t-public !!!!\n", "bad base64"},
		"short key":         {"t-public AAAA\n", "3 bytes, want 32"},
		"no key":            {"t-public\n", "base64 key"},
		"too large":         {strings.Repeat("x", MaxFileSize+1), "more than 4096"},
	} {
		_, err := fam.ParsePublic([]byte(c.text))
		if !errors.Is(err, errTest) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want %q", name, err, c.says)
		}
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	id, err := fam.Generate(dir, "t.key", "t.pub", "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := fam.LoadPublic(filepath.Join(dir, "t.pub"))
	if err != nil || IDOf(pub) != id {
		t.Fatalf("load public: %v", err)
	}
	if _, err := fam.LoadPrivate(filepath.Join(dir, "t.key")); err != nil {
		t.Fatal(err)
	}
	if _, err := fam.Generate(dir, "t.key", "t.pub", "test", nil); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second generate: %v", err)
	}
	if _, err := fam.LoadPublic(filepath.Join(dir, "t.key")); !errors.Is(err, errTest) || !strings.Contains(err.Error(), "is a private key file") {
		t.Errorf("private given as public: %v", err)
	}
	if _, err := fam.LoadPrivate(filepath.Join(dir, "t.pub")); !errors.Is(err, errTest) || !strings.Contains(err.Error(), "give t.key") {
		t.Errorf("public given as private: %v", err)
	}
	os.Chmod(filepath.Join(dir, "t.key"), 0o640)
	if _, err := fam.LoadPrivate(filepath.Join(dir, "t.key")); !errors.Is(err, errTest) || !strings.Contains(err.Error(), "lets others read it") {
		t.Errorf("group-readable private key: %v", err)
	}
}

// A FIFO given as a key file is refused at once, never read (a reader would block).
func TestFIFORefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "k.pub")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 2)
	go func() { _, err := fam.LoadPublic(p); done <- err }()
	go func() { _, err := fam.LoadPrivate(p); done <- err }()
	for range 2 {
		select {
		case err := <-done:
			if !errors.Is(err, regularfile.ErrNotRegular) {
				t.Errorf("FIFO: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("reading a FIFO as a key file blocked")
		}
	}
}

func TestSet(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	other, _, _ := ed25519.GenerateKey(nil)
	msg := []byte("signed")
	sig := ed25519.Sign(priv, msg)
	var none Set
	if v := none.Verify(IDOf(pub), msg, sig); v != NoKeys {
		t.Errorf("empty set: %v", v)
	}
	s := NewSet(pub, other, ed25519.PublicKey{1, 2})
	if len(s) != 2 || len(s.IDs()) != 2 {
		t.Errorf("set of %d keys, %d ids", len(s), len(s.IDs()))
	}
	if v := s.Verify(IDOf(pub), msg, sig); v != Valid {
		t.Errorf("good signature: %v", v)
	}
	if v := s.Verify(IDOf(pub), []byte("changed"), sig); v != BadSignature {
		t.Errorf("changed message: %v", v)
	}
	if v := NewSet(other).Verify(IDOf(pub), msg, sig); v != Untrusted {
		t.Errorf("untrusted key: %v", v)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.pub"), fam.MarshalPublic(pub, ""), 0o644)
	os.WriteFile(filepath.Join(dir, "b.pub"), fam.MarshalPublic(other, ""), 0o644)
	if s, err := fam.LoadSet(dir); err != nil || len(s) != 2 {
		t.Errorf("load dir: %d keys, %v", len(s), err)
	}
	os.WriteFile(filepath.Join(dir, "c.pub"), []byte("junk\n"), 0o644)
	if _, err := fam.LoadSet(dir); !errors.Is(err, errTest) {
		t.Errorf("a malformed key in the directory: %v", err)
	}
}
