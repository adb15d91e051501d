package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/validate/ledger"
)

// genLedger signs a ledger of block 7 at version with the operator key in keyDir.
func genLedger(t *testing.T, keyDir string, version string) string {
	t.Helper()
	def := writeTemp(t, "tiny.json", []byte(tinyDefinition), 0o600)
	gen := t.TempDir()
	if out, err := runLink(t, "ledger", "gen", "--key", filepath.Join(keyDir, "operator.key"), "--block", "7",
		"--version", version, "--definition", def, "--out", gen); err != nil {
		t.Fatalf("ledger gen: %v\n%s", err, out)
	}
	return filepath.Join(gen, "block-7.ledger")
}

// trustInForce is what the emulated terminal trusts, as posd loads it at start.
func trustInForce(t *testing.T, e *emuTerminal) []ledger.KeyID {
	t.Helper()
	tr, err := ledger.LoadTrust(filepath.Join(e.dir, ledger.KeyStatementFile), filepath.Join(e.opDir, "operator.pub"))
	if err != nil {
		t.Fatal(err)
	}
	return tr.IDs()
}

// The technician holds the maintenance token and their own key pair, over the real
// maintenance link: provision --keys attacker.pub (through posctl, and as raw bytes
// through the flash client), a statement signed by the attacker's key, a configuration
// that repoints [keys] operator: each refused, the trust in force unchanged, and a
// ledger signed by the attacker's key still refused.
func TestTechnicianTokenCannotReplaceTrustRoot(t *testing.T) {
	e := newEmuTerminal(t)
	to := e.listen(t)
	tok := writeTemp(t, "token", []byte("tech-token\n"), 0o600)
	attacker := t.TempDir()
	if _, err := runLink(t, "keys", "gen", "--out", attacker); err != nil {
		t.Fatal(err)
	}
	before := trustInForce(t, e)
	attackerPub := filepath.Join(attacker, "operator.pub")

	_, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--keys", attackerPub)
	if err == nil || !strings.Contains(err.Error(), "posctl keys rotate") {
		t.Errorf("provision --keys attacker.pub: %v", err)
	}
	// A modified posctl sends the bare key anyway: the terminal refuses it.
	l, err2 := parseLink(to, 0)
	if err2 != nil {
		t.Fatal(err2)
	}
	c := &flash.Client{Dial: l.dialer(nil), Token: []byte("tech-token"), Attempts: 1, Timeout: 5 * time.Second}
	raw := mustReadFile(t, attackerPub)
	if _, err = c.Send(context.Background(), flash.Keys, bytes.NewReader(raw), int64(len(raw))); err == nil ||
		!strings.Contains(err.Error(), "posctl keys rotate") {
		t.Errorf("bare key over the raw link: %v", err)
	}
	evil := filepath.Join(t.TempDir(), "evil.stmt")
	if out, err := runLink(t, "keys", "rotate", "--key", filepath.Join(attacker, "operator.key"), "--out", evil); err != nil {
		t.Fatalf("keys rotate: %v\n%s", err, out)
	}
	if _, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--keys", evil); err == nil || !strings.Contains(err.Error(), "not trusted") {
		t.Errorf("statement signed by the attacker: %v", err)
	}
	cfg := config.Emulated()
	cfg.Keys.Operator = []string{attackerPub}
	var buf bytes.Buffer
	cfg.Encode(&buf)
	evilCfg := writeTemp(t, "posd.toml", buf.Bytes(), 0o644)
	if _, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--config", evilCfg); err == nil || !strings.Contains(err.Error(), "keys.operator") {
		t.Errorf("config repointing [keys] operator: %v", err)
	}
	if after := trustInForce(t, e); len(after) != len(before) || after[0] != before[0] {
		t.Fatalf("trust changed: %v -> %v", before, after)
	}
	if _, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--ledger", genLedger(t, attacker, "1")); err == nil ||
		!strings.Contains(err.Error(), "not trusted") {
		t.Errorf("ledger signed by the attacker: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "block-7.ledger")); err == nil {
		t.Fatal("the attacker's ledger was installed")
	}
}

// The operator rotates over the real link: a statement signed by the key in force adds
// a new key and retires the old one; a ledger signed by the new key then installs, the
// old key's is refused, and the statement replayed is refused.
func TestOperatorRotatesOverTheLink(t *testing.T) {
	e := newEmuTerminal(t)
	to := e.listen(t)
	tok := writeTemp(t, "token", []byte("tech-token\n"), 0o600)
	next := t.TempDir()
	if _, err := runLink(t, "keys", "gen", "--out", next); err != nil {
		t.Fatal(err)
	}
	stmt := filepath.Join(t.TempDir(), "v1.stmt")
	out, err := runLink(t, "keys", "rotate", "--key", filepath.Join(e.opDir, "operator.key"),
		"--add", filepath.Join(next, "operator.pub"), "--remove", filepath.Join(e.opDir, "operator.pub"), "--out", stmt)
	if err != nil || !strings.Contains(out, "no longer signs") {
		t.Fatalf("keys rotate: %v\n%s", err, out)
	}
	if out, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--keys", stmt); err != nil ||
		!strings.Contains(out, "operator keys installed: statement version 1") {
		t.Fatalf("provision the statement: %v\n%s", err, out)
	}
	if _, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--ledger", genLedger(t, e.opDir, "1")); err == nil {
		t.Error("a ledger signed by the retired key installed")
	}
	if out, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--ledger", genLedger(t, next, "2")); err != nil {
		t.Fatalf("ledger signed by the new key: %v\n%s", err, out)
	}
	// Replayed: the terminal remembers the last item for a retry, so send it after
	// another one; the version is not above the installed one.
	v2 := filepath.Join(t.TempDir(), "v2.stmt")
	if out, err := runLink(t, "keys", "rotate", "--key", filepath.Join(next, "operator.key"), "--from", stmt, "--out", v2); err != nil {
		t.Fatalf("keys rotate --from: %v\n%s", err, out)
	}
	if out, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--keys", v2); err != nil {
		t.Fatalf("v2: %v\n%s", err, out)
	}
	// v1 was signed by the key it retired: refused as untrusted now.
	if _, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--keys", stmt); err == nil || !strings.Contains(err.Error(), "not trusted") {
		t.Errorf("replayed v1: %v", err)
	}
	// v2 is signed by a key still in force, but a version 3 is installed since.
	v3 := filepath.Join(t.TempDir(), "v3.stmt")
	if out, err := runLink(t, "keys", "rotate", "--key", filepath.Join(next, "operator.key"), "--from", v2, "--out", v3); err != nil {
		t.Fatalf("keys rotate v3: %v\n%s", err, out)
	}
	if out, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--keys", v3); err != nil {
		t.Fatalf("v3: %v\n%s", err, out)
	}
	if _, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--keys", v2); err == nil || !strings.Contains(err.Error(), "older") {
		t.Errorf("replayed older statement: %v", err)
	}
	st, err := ledger.LoadKeyStatement(filepath.Join(e.dir, ledger.KeyStatementFile))
	if err != nil || st.Version() != 3 {
		t.Fatalf("installed statement: %v", err)
	}
}

func TestKeysRotateErrors(t *testing.T) {
	k := t.TempDir()
	if _, err := runLink(t, "keys", "gen", "--out", k); err != nil {
		t.Fatal(err)
	}
	key, pub := filepath.Join(k, "operator.key"), filepath.Join(k, "operator.pub")
	out := filepath.Join(t.TempDir(), "s.stmt")
	for name, args := range map[string][]string{
		"no --out":        {"--key", key},
		"public as key":   {"--key", pub, "--out", out},
		"empty set":       {"--key", key, "--remove", pub, "--out", out},
		"unknown removal": {"--key", key, "--remove", "0011223344556677", "--out", out},
		"added twice":     {"--key", key, "--add", pub, "--out", out},
	} {
		if _, err := runLink(t, append([]string{"keys", "rotate"}, args...)...); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a refused rotation wrote a statement")
	}
	if _, err := runLink(t, "keys", "rotate", "--key", key, "--out", out); err != nil {
		t.Fatal(err)
	}
	if _, err := runLink(t, "keys", "rotate", "--key", key, "--out", out); err == nil {
		t.Error("a statement was overwritten")
	}
}
