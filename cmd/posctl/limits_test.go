package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/validate/ledger"
)

// posctl limits gen writes a statement the terminal takes over its link (provision
// --limits); one signed by another key than the terminal's operator key is refused, and
// so is one not newer than the installed one.
func TestLimitsGenProvision(t *testing.T) {
	e := newEmuTerminal(t)
	to := e.listen(t)
	tok := writeTemp(t, "token", []byte("tech-token\n"), 0o600)
	dir := t.TempDir()
	gen := func(key, version string, scope ...string) (string, error) {
		p := filepath.Join(dir, "v"+version+".stmt")
		args := append([]string{"limits", "gen", "--key", key, "--version", version, "--pay-per-ticket", "30",
			"--pay-per-day", "500,00", "--offline-per-ticket", "20", "--offline-total", "200", "--out", p}, scope...)
		out, err := runLink(t, args...)
		if err == nil && !strings.Contains(out, "30,00 € a ticket, 500,00 € a day") {
			t.Fatalf("limits gen: %s", out)
		}
		return p, err
	}
	opKey := filepath.Join(e.opDir, "operator.key")
	if _, err := gen(opKey, "1", "--retailer", "1", "--terminal", "T1"); err == nil {
		t.Fatal("both --terminal and --retailer accepted")
	}
	v2, err := gen(opKey, "2", "--retailer", "1")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ledger.LoadLimitsStatement(v2)
	if err != nil || s.Limits != (ledger.Limits{PerTicket: 30_00, PerDay: 500_00, OfflinePerTicket: 20_00, OfflineTotal: 200_00}) || s.Retailer != 1 {
		t.Fatalf("generated: %+v %v", s, err)
	}
	own := t.TempDir()
	if _, err := runLink(t, "keys", "gen", "--out", own); err != nil {
		t.Fatal(err)
	}
	forged, err := gen(filepath.Join(own, "operator.key"), "9", "--retailer", "1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--limits", forged); err == nil || !strings.Contains(err.Error(), "not trusted") && !errors.Is(err, ledger.ErrUntrustedKey) {
		t.Fatalf("the technician's own statement: %v", err)
	}
	if out, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--limits", v2); err != nil || !strings.Contains(out, "ok: operator limits installed: statement version 2 (none before), for retailer 1") {
		t.Fatalf("provision --limits: %v\n%s", err, out)
	}
	v1, err := gen(opKey, "1", "--retailer", "1")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := runLink(t, "provision", "--to", to, "--token-file", tok, "--limits", v1); err == nil || !strings.Contains(err.Error(), "version 1, installed 2") {
		t.Fatalf("an older statement: %v\n%s", err, out)
	}
}
