package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// runFresh is run with every flag of every command back to its default first: cobra
// keeps flag values between Executes in one process (and slice flags append).
func runFresh(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var reset func(c *cobra.Command)
	reset = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *flag.Flag) {
			if sv, ok := f.Value.(flag.SliceValue); ok {
				sv.Replace(nil)
			} else {
				f.Value.Set(f.DefValue)
			}
			f.Changed = false
		})
		for _, sub := range c.Commands() {
			reset(sub)
		}
	}
	reset(root)
	return run(t, args...)
}

// cliLedger generates keys with posctl keys gen and writes a 10-pack ledger of block 42
// where ticket 0/1 loses, 0/2 wins the first line of game 2 and the rest lose.
func cliLedger(t *testing.T) (keys, file string, secret [codes.SecretSize]byte) {
	t.Helper()
	keys = filepath.Join(t.TempDir(), "keys")
	out, err := runFresh(t, "keys", "gen", "--out", keys)
	if err != nil || !strings.Contains(out, "operator.pub") {
		t.Fatalf("keys gen: %v\n%s", err, out)
	}
	priv, err := ledger.LoadPrivateKey(filepath.Join(keys, "operator.key"))
	if err != nil {
		t.Fatal(err)
	}
	h := ledger.Header{Block: 42, Version: 3, Packs: 10, Definition: game.Reglement()}
	e := ledger.NewEntries(h.Entries())
	secret = [codes.SecretSize]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for i := range h.Entries() {
		id := codes.TicketID{Block: 42, Pack: uint32(i / 8), Position: uint8(i%8 + 1)}
		tier := uint8(0)
		if i == 1 {
			tier = 1
		}
		e.Seal(id, secret, tier)
	}
	file = filepath.Join(t.TempDir(), ledger.FileName(42))
	if err := ledger.Write(file, h, e, priv); err != nil {
		t.Fatal(err)
	}
	return keys, file, secret
}

func TestKeysGenRefusesOverwrite(t *testing.T) {
	keys, _, _ := cliLedger(t)
	if _, err := runFresh(t, "keys", "gen", "--out", keys); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second keys gen: %v", err)
	}
	st, _ := os.Stat(filepath.Join(keys, "operator.key"))
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("operator.key mode %v", st.Mode().Perm())
	}
}

func TestLedgerVerify(t *testing.T) {
	keys, file, _ := cliLedger(t)
	pub := filepath.Join(keys, "operator.pub")
	out, err := runFresh(t, "ledger", "verify", "--pub", pub, file)
	if err != nil || !strings.Contains(out, "ok: block 42, ledger version 3, 10 packs, 80 tickets") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	other := filepath.Join(t.TempDir(), "k")
	runFresh(t, "keys", "gen", "--out", other)
	if _, err := runFresh(t, "ledger", "verify", "--pub", filepath.Join(other, "operator.pub"), file); !errors.Is(err, ledger.ErrUntrustedKey) {
		t.Fatalf("verify with another key: %v", err)
	}
	d, _ := os.ReadFile(file)
	d[len(d)-5] ^= 1
	bad := filepath.Join(t.TempDir(), "bad.ledger")
	os.WriteFile(bad, d, 0o644)
	if _, err := runFresh(t, "ledger", "verify", "--pub", pub, bad); !errors.Is(err, ledger.ErrHash) {
		t.Fatalf("verify a tampered file: %v", err)
	}
	if _, err := runFresh(t, "ledger", "verify", "--pub", t.TempDir(), file); !errors.Is(err, ledger.ErrNoTrustedKey) {
		t.Fatalf("verify with no key: %v", err)
	}
}

func TestLedgerInspect(t *testing.T) {
	keys, file, _ := cliLedger(t)
	out, err := runFresh(t, "ledger", "inspect", file, "--pub", filepath.Join(keys, "operator.pub"))
	if err != nil {
		t.Fatalf("inspect: %v\n%s", err, out)
	}
	for _, want := range []string{"block:           42", "ledger version:  3", "tickets:         80", "signature:       valid", "entries:         match the hash tree", `"La soirée privée"`, "50 000 €", "  0  losing"} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect lacks %q:\n%s", want, out)
		}
	}
	// Operator diagnostics in one language.
	for _, french := range []string{"perdant", "gagnant", "«"} {
		if strings.Contains(strings.ToLower(out), french) {
			t.Errorf("inspect speaks French (%q):\n%s", french, out)
		}
	}
}

func TestLedgerCheck(t *testing.T) {
	keys, file, secret := cliLedger(t)
	pub := filepath.Join(keys, "operator.pub")
	code := func(block uint16, pack uint32, pos uint8, s [codes.SecretSize]byte) string {
		return codes.ValidationCodeOf(codes.TicketID{Block: block, Pack: pack, Position: pos}, s).Manual()
	}
	out, err := runFresh(t, "ledger", "check", "--pub", pub, file, code(42, 0, 2, secret))
	if err != nil || !strings.Contains(out, "GAGNANT : 2 000,00 €") {
		t.Fatalf("winner: %v\n%s", err, out)
	}
	out, err = runFresh(t, "ledger", "check", "--pub", pub, file, code(42, 0, 1, secret))
	if err != nil || !strings.Contains(out, "PERDANT") {
		t.Fatalf("loser: %v\n%s", err, out)
	}
	forged := secret
	forged[0] ^= 0x10
	out, err = runFresh(t, "ledger", "check", "--pub", pub, file, code(42, 0, 2, forged))
	if !errors.Is(err, ledger.ErrForged) || !strings.Contains(out, "CODE REFUSÉ") {
		t.Fatalf("forged: %v\n%s", err, out)
	}
	out, err = runFresh(t, "ledger", "check", "--pub", pub, file, code(43, 0, 2, secret))
	if !errors.Is(err, ledger.ErrUnknownBlock) || !strings.Contains(out, "BLOC INCONNU") {
		t.Fatalf("unknown block: %v\n%s", err, out)
	}
	if out, err := runFresh(t, "ledger", "check", "--pub", pub, file, "NOT-A-CODE"); err == nil || !strings.Contains(out, "CODE INVALIDE (") {
		t.Fatalf("garbage: %v\n%s", err, out)
	}
	// A mistyped code gets its French reason, and nothing in English.
	typo := []byte(code(42, 0, 2, secret))
	typo[20] = pick(typo[20])
	out, err = runFresh(t, "ledger", "check", "--pub", pub, file, string(typo))
	if !errors.Is(err, codes.ErrCheck) || !strings.Contains(out, "CODE INVALIDE (le caractère de contrôle") || strings.Contains(err.Error(), "check character") {
		t.Fatalf("mistyped: %v\n%s", err, out)
	}
	// With a status list voiding pack 0.
	priv, _ := ledger.LoadPrivateKey(filepath.Join(keys, "operator.key"))
	status := filepath.Join(t.TempDir(), "status.list")
	if err := ledger.WriteStatus(status, &ledger.StatusList{Retailer: 1, Version: 1, Ranges: []ledger.PackRange{{Block: 42, First: 0, Count: 1, State: ledger.PackStolen}}}, priv); err != nil {
		t.Fatal(err)
	}
	out, err = runFresh(t, "ledger", "check", "--pub", pub, "--status", status, file, code(42, 0, 2, secret))
	if err == nil || !strings.Contains(out, "PAQUET VOLÉ") {
		t.Fatalf("stolen pack: %v\n%s", err, out)
	}
}

// pick changes one character of a code for another valid one.
func pick(c byte) byte {
	if c == 'A' {
		return 'B'
	}
	return 'A'
}
