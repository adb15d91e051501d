package main

import (
	"crypto/ed25519"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/validate/ledger"
)

func TestStatusGenInspectInstall(t *testing.T) {
	keys, _, _ := cliLedger(t)
	key, pub := filepath.Join(keys, "operator.key"), filepath.Join(keys, "operator.pub")
	dir, term := t.TempDir(), t.TempDir()
	gen := func(name, version string) string {
		p := filepath.Join(dir, name)
		out, err := runFresh(t, "status", "gen", "--key", key, "--retailer", "7001", "--version", version, "--out", p,
			"--delivered", "42:1000-1499", "--delivered", "41:0-19", "--stolen", "42:1200", "--void", "43:5", "--issued", "1780000000")
		if err != nil {
			t.Fatalf("status gen: %v\n%s", err, out)
		}
		return p
	}
	v3 := gen("v3.list", "3")
	s, err := ledger.LoadStatus(v3, ledger.NewTrustStore(mustPub(t, pub)))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Sellable(42, 1499) || s.Sellable(42, 1200) || !s.Void(42, 1200) || !s.Void(43, 5) || !s.Sellable(41, 19) || s.Sellable(41, 20) {
		t.Fatalf("generated list: %+v", s.Ranges)
	}
	out, err := runFresh(t, "status", "inspect", "--pub", pub, v3)
	if err != nil || !strings.Contains(out, "retailer:   7001") || !strings.Contains(out, "signature:  valid") || !strings.Contains(out, "stolen    block 42, packs 1200–1200") {
		t.Fatalf("status inspect: %v\n%s", err, out)
	}
	// The terminal's retailer pins the first list: another retailer's is refused.
	if _, err := runFresh(t, "status", "install", "--pub", pub, "--dir", term, "--retailer", "7002", v3); !errors.Is(err, ledger.ErrRetailer) {
		t.Fatalf("first list for another retailer: %v", err)
	}
	if out, err := runFresh(t, "status", "install", "--pub", pub, "--dir", term, "--retailer", "7001", v3); err != nil || !strings.Contains(out, "version 3 (none before)") {
		t.Fatalf("status install: %v\n%s", err, out)
	}
	v2 := gen("v2.list", "2")
	if _, err := runFresh(t, "status", "install", "--pub", pub, "--dir", term, "--retailer", "7001", v2); !errors.Is(err, ledger.ErrOlderVersion) {
		t.Fatalf("older list: %v", err)
	}
	if _, err := runFresh(t, "status", "gen", "--key", key, "--retailer", "1", "--version", "1", "--out", filepath.Join(dir, "x"), "--void", "42:9-3"); err == nil {
		t.Fatal("backwards range accepted")
	}
}

func TestLedgerInstall(t *testing.T) {
	keys, file, _ := cliLedger(t)
	pub := filepath.Join(keys, "operator.pub")
	term := t.TempDir()
	out, err := runFresh(t, "ledger", "install", "--pub", pub, "--dir", term, file)
	if err != nil || !strings.Contains(out, "block 42, version 3 (none before)") {
		t.Fatalf("ledger install: %v\n%s", err, out)
	}
	out, err = runFresh(t, "ledger", "install", "--pub", pub, "--dir", term, file)
	if err != nil || !strings.Contains(out, "(was 3)") {
		t.Fatalf("reinstall: %v\n%s", err, out)
	}
	if _, err := runFresh(t, "ledger", "verify", "--pub", pub, filepath.Join(term, "block-42.ledger")); err != nil {
		t.Fatalf("installed ledger: %v", err)
	}
}

func mustPub(t *testing.T, path string) ed25519.PublicKey {
	t.Helper()
	k, err := ledger.LoadPublicKey(path)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
