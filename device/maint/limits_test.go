package maint

import (
	"context"
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/validate/ledger"
)

func limitsFile(t *testing.T, s ledger.LimitsStatement, signer ed25519.PrivateKey) string {
	t.Helper()
	b, err := ledger.SignLimitsStatement(s, signer)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "limits.stmt")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Issue 47: the money limits change over the link only by a statement the operator
// signed. The technician's own statement (their own key) raising every limit is refused
// and installs nothing; the operator's installs, answering its version and each limit's
// old (the configuration's) and new value; an older one after it is refused.
func TestLimitsStatementOverTheLink(t *testing.T) {
	s, operator := site(t)
	keys := Items(s)[flash.Keys]
	ctx := context.Background()
	_, own, _ := ed25519.GenerateKey(nil)
	max := ledger.Limits{PerTicket: ledger.MaxLimit, PerDay: ledger.MaxLimit, OfflinePerTicket: ledger.MaxLimit, OfflineTotal: ledger.MaxLimit}
	if _, err := keys.Install(ctx, limitsFile(t, ledger.LimitsStatement{Version: 9, Terminal: s.Terminal, Limits: max}, own)); !errors.Is(err, ledger.ErrUntrustedKey) {
		t.Fatalf("technician's own statement: %v", err)
	}
	if _, err := os.Stat(s.LimitsStatement()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("refused statement left a file: %v", err)
	}
	if _, err := keys.Install(ctx, limitsFile(t, ledger.LimitsStatement{Version: 1, Terminal: "OTHER", Limits: max}, operator)); !errors.Is(err, ledger.ErrLimitsScope) {
		t.Fatalf("another terminal's statement: %v", err)
	}
	l := ledger.Limits{PerTicket: 30_00, PerDay: 50_00, OfflinePerTicket: s.Running.Limits.OfflinePerTicket, OfflineTotal: s.Running.Limits.OfflineTotal}
	l.OfflinePerTicket = min(l.OfflinePerTicket, l.PerTicket)
	msg, err := keys.Install(ctx, limitsFile(t, ledger.LimitsStatement{Version: 2, Retailer: s.Retailer, Limits: l}, operator))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"operator limits installed: statement version 2 (none before)", "for retailer 1",
		"from the configuration's", "pay_per_ticket 150,00 -> 30,00", "pay_per_day 5000,00 -> 50,00"} {
		if !strings.Contains(msg, want) {
			t.Errorf("answer %q lacks %q", msg, want)
		}
	}
	if _, err := keys.Install(ctx, limitsFile(t, ledger.LimitsStatement{Version: 1, Retailer: s.Retailer, Limits: max}, operator)); !errors.Is(err, ledger.ErrOlderVersion) {
		t.Fatalf("older statement: %v", err)
	}
	if got, err := ledger.LoadLimitsStatement(s.LimitsStatement()); err != nil || got.Version != 2 {
		t.Fatalf("installed: %+v %v", got, err)
	}
}
