package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// asFormat1 writes a copy of the ledger at file with format version 1 in its header, as
// a ledger of the previous format reads (the reader refuses it on the version alone).
func asFormat1(t *testing.T, file, dir string) string {
	t.Helper()
	d, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	d[8], d[9] = 0, 1
	p := filepath.Join(dir, filepath.Base(file))
	if err := os.WriteFile(p, d, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func wantFormat1(t *testing.T, what string, err error) {
	t.Helper()
	t.Logf("%s: %v", what, err)
	if !errors.Is(err, ledger.ErrFormat1) || !strings.Contains(err.Error(), "regenerated") {
		t.Errorf("%s of a format 1 ledger: %v, want a refusal saying the block must be regenerated", what, err)
	}
}

// TestFormat1RefusedByEveryCommand: verify, inspect, check, install and audit refuse a
// format 1 ledger and say the block must be regenerated.
func TestFormat1RefusedByEveryCommand(t *testing.T) {
	keys, file, secret := cliLedger(t)
	pub := filepath.Join(keys, "operator.pub")
	old := asFormat1(t, file, t.TempDir())
	code := codes.ValidationCodeOf(codes.TicketID{Block: 42, Pack: 0, Position: 2}, secret).Manual()
	_, err := runFresh(t, "ledger", "verify", "--pub", pub, old)
	wantFormat1(t, "verify", err)
	_, err = runFresh(t, "ledger", "inspect", "--pub", pub, old)
	wantFormat1(t, "inspect", err)
	_, err = runFresh(t, "ledger", "check", "--pub", pub, old, code)
	wantFormat1(t, "check", err)
	_, err = runFresh(t, "ledger", "install", "--pub", pub, "--dir", t.TempDir(), old)
	wantFormat1(t, "install", err)

	keys, out := genTiny(t)
	lp := filepath.Join(out, ledger.FileName(7))
	asFormat1(t, lp, out) // in place
	_, err = runFresh(t, "ledger", "audit", "--pub", filepath.Join(keys, "operator.pub"), out)
	wantFormat1(t, "audit", err)
}

// genTiny generates block 7 of the eight-pack test definition into a new directory.
func genTiny(t *testing.T) (keys, out string) {
	t.Helper()
	dir := t.TempDir()
	def := filepath.Join(dir, "tiny.json")
	if err := os.WriteFile(def, []byte(tinyDefinition), 0o600); err != nil {
		t.Fatal(err)
	}
	keys, out = filepath.Join(dir, "keys"), filepath.Join(dir, "out")
	if o, err := runFresh(t, "keys", "gen", "--out", keys); err != nil {
		t.Fatalf("%v\n%s", err, o)
	}
	if o, err := runFresh(t, "ledger", "gen", "--key", filepath.Join(keys, "operator.key"), "--block", "7", "--definition", def, "--out", out); err != nil {
		t.Fatalf("%v\n%s", err, o)
	}
	return keys, out
}

// TestLedgerGenRefusesAtOnce: a directory that holds a file of the block is refused before
// any design work (no "design:" line), and nothing in it changes.
func TestLedgerGenRefusesAtOnce(t *testing.T) {
	keys, out := genTiny(t)
	before, _ := os.ReadFile(filepath.Join(out, block.ManifestFileName(7)))
	os.Remove(filepath.Join(out, ledger.FileName(7)))
	o, err := runFresh(t, "ledger", "gen", "--key", filepath.Join(keys, "operator.key"), "--block", "7", "--out", out)
	if !errors.Is(err, block.ErrExists) || strings.Contains(o, "design:") {
		t.Fatalf("gen into a directory holding the block: %v\n%s", err, o)
	}
	if after, _ := os.ReadFile(filepath.Join(out, block.ManifestFileName(7))); string(after) != string(before) {
		t.Fatal("the manifest changed")
	}
	if _, err := os.Stat(filepath.Join(out, ledger.FileName(7))); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("a refused gen wrote a ledger")
	}
}

// TestLedgerAuditNoBlock: a missing directory, a file, or a directory without a ledger
// fail with a clear error (never "holds 0 ledgers").
func TestLedgerAuditNoBlock(t *testing.T) {
	keys, _, _ := cliLedger(t)
	pub := filepath.Join(keys, "operator.pub")
	missing := filepath.Join(t.TempDir(), "nowhere")
	if _, err := runFresh(t, "ledger", "audit", "--pub", pub, missing); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "nowhere") {
		t.Fatalf("audit of a missing directory: %v", err)
	}
	if _, err := runFresh(t, "ledger", "audit", "--pub", pub, pub); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("audit of a file: %v", err)
	}
	if _, err := runFresh(t, "ledger", "audit", "--pub", pub, t.TempDir()); err == nil || !strings.Contains(err.Error(), "holds no block-*.ledger") {
		t.Fatalf("audit of an empty directory: %v", err)
	}
}

// TestKeyMixUps: a public key where a private key is needed, and the reverse, say so.
func TestKeyMixUps(t *testing.T) {
	keys, file, _ := cliLedger(t)
	priv, pub := filepath.Join(keys, "operator.key"), filepath.Join(keys, "operator.pub")
	out := t.TempDir()
	for _, args := range [][]string{
		{"ledger", "gen", "--key", pub, "--block", "7", "--out", out},
		{"status", "gen", "--key", pub, "--retailer", "1", "--version", "1", "--out", filepath.Join(out, "s.list")},
	} {
		_, err := runFresh(t, args...)
		if !errors.Is(err, ledger.ErrKeyFile) || !strings.Contains(err.Error(), "is a public key file") || !strings.Contains(err.Error(), "private key") {
			t.Errorf("%v: %v", args[:2], err)
		}
	}
	for _, args := range [][]string{
		{"ledger", "verify", "--pub", priv, file},
		{"ledger", "install", "--pub", priv, "--dir", out, file},
		{"status", "inspect", "--pub", priv, file},
	} {
		_, err := runFresh(t, args...)
		if !errors.Is(err, ledger.ErrKeyFile) || !strings.Contains(err.Error(), "is a private key file") {
			t.Errorf("%v: %v", args[:2], err)
		}
	}
}

// TestCommandsRefuseFIFOs: a FIFO given as the ledger, as --pub or as a status list is
// refused at once (before, every one of these commands hung until killed).
func TestCommandsRefuseFIFOs(t *testing.T) {
	keys, file, secret := cliLedger(t)
	pub := filepath.Join(keys, "operator.pub")
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	code := codes.ValidationCodeOf(codes.TicketID{Block: 42, Pack: 0, Position: 2}, secret).Manual()
	term := t.TempDir()
	for _, args := range [][]string{
		{"ledger", "verify", "--pub", pub, fifo},
		{"ledger", "verify", "--pub", fifo, file},
		{"ledger", "inspect", fifo},
		{"ledger", "check", "--pub", pub, fifo, code},
		{"ledger", "check", "--pub", pub, "--status", fifo, file, code},
		{"ledger", "install", "--pub", pub, "--dir", term, fifo},
		{"status", "inspect", fifo},
		{"status", "install", "--pub", pub, "--dir", term, "--retailer", "1", fifo},
	} {
		if _, err := runFresh(t, args...); !errors.Is(err, ledger.ErrNotRegular) {
			t.Errorf("%v: %v, want ErrNotRegular", args, err)
		}
	}
}
