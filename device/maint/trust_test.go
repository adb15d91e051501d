package maint

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/validate/ledger"
)

func statementFile(t *testing.T, version uint64, signer ed25519.PrivateKey, keys ...ed25519.PublicKey) string {
	t.Helper()
	b, err := ledger.SignKeyStatement(version, keys, signer)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "keys.stmt")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// trustedIDs is the operator trust in force at s, as the daemon loads it at start.
func trustedIDs(t *testing.T, s Site) []ledger.KeyID {
	t.Helper()
	tr, err := ledger.LoadTrust(s.OperatorStatement(), s.OperatorKeys...)
	if err != nil {
		t.Fatal(err)
	}
	return tr.IDs()
}

// The technician holds the maintenance token and nothing signed. Every way the link
// offers to change what the terminal trusts is refused, the trust stays as it was, and a
// ledger signed by the technician's own key is still refused.
func TestTechnicianCannotChangeTrust(t *testing.T) {
	s, operator := site(t)
	items := Items(s)
	ctx := context.Background()
	attackerPub, attacker, _ := ed25519.GenerateKey(nil)
	before := trustedIDs(t, s)

	// 1. provision --keys attacker.pub: a bare key file.
	bare := filepath.Join(t.TempDir(), "attacker.pub")
	os.WriteFile(bare, ledger.MarshalPublicKey(attackerPub, "attacker"), 0o644)
	_, err := items[flash.Keys].Install(ctx, bare)
	if !errors.Is(err, ErrBareKey) || !strings.Contains(err.Error(), "posctl keys rotate") {
		t.Errorf("bare key file: %v", err)
	}
	// 2. A statement signed by the attacker's own key.
	if _, err := items[flash.Keys].Install(ctx, statementFile(t, 9, attacker, attackerPub)); !errors.Is(err, ledger.ErrUntrustedKey) {
		t.Errorf("statement signed by an untrusted key: %v", err)
	}
	// 3. A replayed older statement: the operator once signed version 1 trusting a key
	// the attacker obtained; version 2 has since replaced it.
	old := statementFile(t, 1, operator, operator.Public().(ed25519.PublicKey), attackerPub)
	cur := statementFile(t, 2, operator, operator.Public().(ed25519.PublicKey))
	if _, err := items[flash.Keys].Install(ctx, cur); err != nil {
		t.Fatal(err)
	}
	before = trustedIDs(t, s)
	if _, err := items[flash.Keys].Install(ctx, old); !errors.Is(err, ledger.ErrOlderVersion) {
		t.Errorf("replayed older statement: %v", err)
	}
	// 4. A configuration that repoints [keys] operator at the attacker's key, or [keys]
	// firmware, or sets the technician token, data_dir or retailer.
	for name, edit := range map[string]func(c *config.Config){
		"keys.operator":           func(c *config.Config) { c.Keys.Operator = []string{bare} },
		"keys.operator added":     func(c *config.Config) { c.Keys.Operator = append(c.Keys.Operator, bare) },
		"keys.firmware":           func(c *config.Config) { c.Keys.Firmware = []string{bare} },
		"technician.token_sha256": func(c *config.Config) { c.Technician.TokenSHA256 = strings.Repeat("ab", 32) },
		"terminal.data_dir":       func(c *config.Config) { c.DataDir = t.TempDir() },
		"terminal.retailer":       func(c *config.Config) { c.RetailerID = "2" },
	} {
		c := *s.Running
		c.Keys.Operator = append([]string(nil), c.Keys.Operator...)
		edit(&c)
		err := items[flash.Config].Verify(ctx, writeConfig(t, c))
		if !errors.Is(err, ErrTrustSettings) || !strings.Contains(err.Error(), strings.Fields(name)[0]) {
			t.Errorf("config changing %s: %v", name, err)
		}
	}
	// 5. A firmware key statement on a terminal that takes no firmware.
	fw, _ := fwkey.SignStatement(1, []ed25519.PublicKey{attackerPub}, attacker)
	fwp := filepath.Join(t.TempDir(), "fw.stmt")
	os.WriteFile(fwp, fw, 0o644)
	if _, err := items[flash.Keys].Install(ctx, fwp); !errors.Is(err, ErrNoFirmware) {
		t.Errorf("firmware statement: %v", err)
	}

	if after := trustedIDs(t, s); !slicesEqual(before, after) {
		t.Fatalf("trust changed: %v -> %v", before, after)
	}
	if _, err := items[flash.Ledger].Install(ctx, writeLedger(t, 1, attacker)); !errors.Is(err, ledger.ErrUntrustedKey) {
		t.Errorf("a ledger signed by the attacker's key: %v", err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, ledger.FileName(7))); err == nil {
		t.Error("the attacker's ledger was installed")
	}
}

// The operator rotates: a statement signed by the key in force adds a new key and
// retires the old one; ledgers signed by the new key install, the old key's no longer.
func TestOperatorRotation(t *testing.T) {
	s, operator := site(t)
	items := Items(s)
	ctx := context.Background()
	newPub, newKey, _ := ed25519.GenerateKey(nil)
	res, err := items[flash.Keys].Install(ctx, statementFile(t, 1, operator, newPub))
	if err != nil || !strings.Contains(res, "operator keys installed: statement version 1") {
		t.Fatalf("rotation: %q %v", res, err)
	}
	if _, err := items[flash.Ledger].Install(ctx, writeLedger(t, 1, operator)); !errors.Is(err, ledger.ErrUntrustedKey) {
		t.Errorf("a ledger signed by the retired key: %v", err)
	}
	if _, err := items[flash.Ledger].Install(ctx, writeLedger(t, 2, newKey)); err != nil {
		t.Errorf("a ledger signed by the new key: %v", err)
	}
	// The retired key cannot sign its way back in.
	opPub := operator.Public().(ed25519.PublicKey)
	if _, err := items[flash.Keys].Install(ctx, statementFile(t, 2, operator, opPub)); !errors.Is(err, ledger.ErrUntrustedKey) {
		t.Errorf("statement by the retired key: %v", err)
	}
}

// A terminal with no trusted operator key takes nothing signed over the link, a key
// statement included: its first keys come with its image or a signed firmware bundle.
func TestFirstKeysNotOverTheLink(t *testing.T) {
	s, _ := site(t)
	os.Remove(s.OperatorKeys[0])
	pub, priv, _ := ed25519.GenerateKey(nil)
	_, err := Items(s)[flash.Keys].Install(context.Background(), statementFile(t, 1, priv, pub))
	if !errors.Is(err, ErrNoTrust) {
		t.Fatalf("first keys over the link: %v", err)
	}
	if _, err := os.Stat(s.OperatorStatement()); err == nil {
		t.Fatal("a statement was installed on a terminal that trusts nothing")
	}
}

// Firmware keys rotate the same way, into the slot root, signed by a firmware key in
// force.
func TestFirmwareKeyRotation(t *testing.T) {
	s, _ := site(t)
	root := t.TempDir()
	fwPub, fwPriv, _ := ed25519.GenerateKey(nil)
	anchor := filepath.Join(t.TempDir(), "firmware.pub")
	os.WriteFile(anchor, fwkey.MarshalPublic(fwPub, "fw"), 0o644)
	s.SlotRoot, s.FirmwareKeys = root, []string{anchor}
	items := Items(s)
	ctx := context.Background()
	newPub, newPriv, _ := ed25519.GenerateKey(nil)
	put := func(b []byte, err error) string {
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "fw.stmt")
		os.WriteFile(p, b, 0o644)
		return p
	}
	if _, err := items[flash.Keys].Install(ctx, put(fwkey.SignStatement(1, []ed25519.PublicKey{newPub}, newPriv))); !errors.Is(err, fwkey.ErrUntrusted) {
		t.Errorf("firmware statement signed by an untrusted key: %v", err)
	}
	bare := put(fwkey.MarshalPublic(newPub, "x"), nil)
	if _, err := items[flash.Keys].Install(ctx, bare); !errors.Is(err, ErrBareKey) {
		t.Errorf("bare firmware key: %v", err)
	}
	if _, err := items[flash.Keys].Install(ctx, put(fwkey.SignStatement(1, []ed25519.PublicKey{newPub}, fwPriv))); err != nil {
		t.Fatalf("firmware rotation: %v", err)
	}
	tr, err := fwkey.LoadTrust(filepath.Join(root, fwkey.StatementFile), anchor)
	if err != nil || tr.Len() != 1 || tr.Verify(fwkey.IDOf(newPub), []byte("m"), ed25519.Sign(newPriv, []byte("m"))) != nil {
		t.Fatalf("firmware trust in force: %v", err)
	}
	before, _ := os.ReadFile(filepath.Join(root, fwkey.StatementFile))
	if _, err := items[flash.Keys].Install(ctx, put(fwkey.SignStatement(1, []ed25519.PublicKey{fwPub}, newPriv))); !errors.Is(err, fwkey.ErrOlderVersion) {
		t.Errorf("replayed firmware statement: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(root, fwkey.StatementFile)); !bytes.Equal(before, after) {
		t.Error("a refused statement changed the installed one")
	}
}

func slicesEqual(a, b []ledger.KeyID) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
