package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/internal/techcard"
)

// TestKeysCard: the card is a QR code of the token in the card's shape (techcard: read back
// by our decoder, recognised as a card), private to
// its owner, never written over a file; the configuration line holds the token's hash; a
// short token is refused.
func TestKeysCard(t *testing.T) {
	dir := t.TempDir()
	const token = "TECH-7Q2M-91XD-44PL"
	tokFile := filepath.Join(dir, "tech.token")
	if err := os.WriteFile(tokFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	card := filepath.Join(dir, "card.png")
	out, err := run(t, "keys", "card", "--token-file", tokFile, "--out", card)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	sum := sha256.Sum256([]byte(token))
	if !strings.Contains(out, `token_sha256 = "`+hex.EncodeToString(sum[:])+`"`) || strings.Contains(out, token) {
		t.Errorf("output (the hash, never the token):\n%s", out)
	}
	st, err := os.Stat(card)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("card file: %v %v", st, err)
	}
	fr, err := scanner.LoadFrame(card)
	if err != nil {
		t.Fatal(err)
	}
	res, err := barcode.NewDecoder(barcode.Options{Formats: barcode.AllFormats}).Decode(fr.Image)
	if tok, ok := techcard.Decode(res.Text); err != nil || !ok || tok != token || res.Format != barcode.QRCode {
		t.Errorf("the card reads %q (%v), %v", res.Text, res.Format, err)
	}
	if _, err := run(t, "keys", "card", "--token-file", tokFile, "--out", card); err == nil || !strings.Contains(err.Error(), "not overwritten") {
		t.Errorf("second card over the first: %v", err)
	}
	short := filepath.Join(dir, "short.token")
	os.WriteFile(short, []byte("1234"), 0o600)
	if _, err := run(t, "keys", "card", "--token-file", short, "--out", filepath.Join(dir, "c2.png")); err == nil || !strings.Contains(err.Error(), "at least 12") {
		t.Errorf("4-character token: %v", err)
	}
}
