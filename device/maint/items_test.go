package maint

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// site is a terminal of retailer 1 under a temporary directory, trusting a fresh operator
// key; it returns the key that signs what it should accept.
func site(t *testing.T) (Site, ed25519.PrivateKey) {
	t.Helper()
	dir := t.TempDir()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	anchor := filepath.Join(dir, "operator.pub")
	running := config.Emulated()
	running.Keys.Operator = []string{anchor}
	s := Site{Dir: filepath.Join(dir, "data"), ConfigPath: filepath.Join(dir, "posd.toml"), Running: &running,
		OperatorKeys: []string{anchor}, Retailer: 1, Terminal: running.TerminalID}
	if err := os.WriteFile(anchor, ledger.MarshalPublicKey(pub, "test"), 0o644); err != nil {
		t.Fatal(err)
	}
	return s, priv
}

func writeLedger(t *testing.T, version uint64, key ed25519.PrivateKey) string {
	t.Helper()
	h := ledger.Header{Block: 7, Version: version, Packs: 1, Definition: game.Reglement()}
	p := filepath.Join(t.TempDir(), "in.ledger")
	if err := ledger.Write(p, h, ledger.NewEntries(h.Entries()), key); err != nil {
		t.Fatal(err)
	}
	return p
}

func writeStatus(t *testing.T, retailer uint32, version uint64, key ed25519.PrivateKey) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "in.list")
	s := &ledger.StatusList{Retailer: retailer, Version: version, Ranges: []ledger.PackRange{{Block: 7, First: 0, Count: 1, State: ledger.PackDelivered}}}
	if err := ledger.WriteStatus(p, s, key); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLedgerInstallFailsClosed(t *testing.T) {
	s, key := site(t)
	it := Items(s)[flash.Ledger]
	ctx := context.Background()
	if _, err := it.Install(ctx, writeLedger(t, 2, key)); err != nil {
		t.Fatal(err)
	}
	installed := filepath.Join(s.Dir, ledger.FileName(7))
	before, err := os.ReadFile(installed)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := it.Install(ctx, writeLedger(t, 1, key)); !errors.Is(err, ledger.ErrOlderVersion) {
		t.Errorf("older ledger: %v", err)
	}
	_, other, _ := ed25519.GenerateKey(nil)
	if _, err := it.Install(ctx, writeLedger(t, 3, other)); err == nil {
		t.Error("a ledger signed by an untrusted key was installed")
	}
	junk := filepath.Join(t.TempDir(), "junk")
	os.WriteFile(junk, []byte("not a ledger"), 0o644)
	if _, err := it.Install(ctx, junk); err == nil {
		t.Error("junk installed")
	}
	if after, _ := os.ReadFile(installed); !bytes.Equal(before, after) {
		t.Error("a refused ledger changed the installed one")
	}
}

func TestStatusOfAnotherRetailerRefused(t *testing.T) {
	s, key := site(t)
	it := Items(s)[flash.Status]
	ctx := context.Background()
	if _, err := it.Install(ctx, writeStatus(t, 2, 1, key)); !errors.Is(err, ErrRetailer) {
		t.Errorf("retailer 2: %v", err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, ledger.StatusFileName)); err == nil {
		t.Error("a list of another retailer was installed")
	}
	if _, err := it.Install(ctx, writeStatus(t, 1, 2, key)); err != nil {
		t.Fatal(err)
	}
	if _, err := it.Install(ctx, writeStatus(t, 1, 1, key)); !errors.Is(err, ledger.ErrOlderVersion) {
		t.Errorf("older list: %v", err)
	}
	if _, err := ledger.LoadStatus(filepath.Join(s.Dir, ledger.StatusFileName), mustTrust(t, s.OperatorKeys[0])); err != nil {
		t.Error(err)
	}
}

func TestConfigVerified(t *testing.T) {
	s, _ := site(t)
	items := Items(s)
	ctx := context.Background()
	good := writeConfig(t, *s.Running)
	if err := items[flash.Config].Verify(ctx, good); err != nil {
		t.Errorf("good config: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("[terminal]\nid = \"T 1\"\n"), 0o644)
	if err := items[flash.Config].Verify(ctx, bad); err == nil {
		t.Error("a config posd would refuse was accepted")
	}
	if _, ok := Items(Site{Dir: s.Dir, Retailer: 1})[flash.Config]; ok {
		t.Error("config accepted with no ConfigPath")
	}
	// With no running configuration given, the installed file is compared with; with
	// none there, every configuration is refused.
	s.Running = nil
	if err := Items(s)[flash.Config].Verify(ctx, good); !errors.Is(err, ErrTrustSettings) {
		t.Errorf("no running configuration: %v", err)
	}
	os.WriteFile(s.ConfigPath, mustRead(t, good), 0o644)
	if err := Items(s)[flash.Config].Verify(ctx, good); err != nil {
		t.Errorf("same trust settings as the installed file: %v", err)
	}
}

func writeConfig(t *testing.T, c config.Config) string {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "posd.toml")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustTrust(t *testing.T, p string) *ledger.TrustStore {
	t.Helper()
	tr, err := ledger.LoadTrustStore(p)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
