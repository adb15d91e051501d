package daemon

import (
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// Issue 47, the money limits are the operator's. Statement 1 (retailer 1, the image's
// limits) then statement 2 (terminal T-1, 5 € a ticket) are installed over the link and
// journalled with old and new values; with statement 2 a 5 € winner is above the limit
// though [limits] says 150 €. The retailer with root then puts statement 1 back, removes
// the statement, or puts the technician's own statement (their key, every limit at its
// maximum) in its place: each time the terminal starts with DONNÉES REFUSÉES and judges
// and pays nothing. Statement 2 back, its limits are in force again.
func TestLimitsStatementInForce(t *testing.T) {
	tb := newTestBlock(t, 13)
	b := newBoard(t, tb)
	b.installLedger(t, tb)
	b.installStatus(t, tb)
	b.cfg.Maintenance = "tcp:" + freeAddr(t)
	sign := func(s ledger.LimitsStatement, key ed25519.PrivateKey) []byte {
		text, err := ledger.SignLimitsStatement(s, key)
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	c := b.cfg.Limits
	stmt := map[uint64][]byte{
		1: sign(ledger.LimitsStatement{Version: 1, Retailer: 1, Limits: ledger.Limits{PerTicket: c.PerTicket, PerDay: c.PerDay,
			OfflinePerTicket: c.OfflinePerTicket, OfflineTotal: c.OfflineTotal}}, tb.key),
		2: sign(ledger.LimitsStatement{Version: 2, Terminal: "T-1", Limits: ledger.Limits{PerTicket: 4_00, PerDay: 50_00,
			OfflinePerTicket: 4_00, OfflineTotal: 50_00}}, tb.key),
	}
	o := Options{RestartQuiet: 200 * time.Millisecond}
	for _, v := range []uint64{1, 2} {
		d := b.start(t, o)
		if res, err := sendBytes(tcpClient(d.r.Maintenance, testToken), flash.Keys, stmt[v]); err != nil {
			t.Fatalf("statement %d: %+v %v", v, res, err)
		}
		if err := d.ended(10 * time.Second); !errors.Is(err, ErrRestart) {
			t.Fatalf("Run returned %v, want a restart", err)
		}
	}
	var detail []string
	for _, r := range records(t, b.cfg.DataDir) {
		if r.Kind == journal.KindConfigChange {
			detail = append(detail, r.Detail)
		}
	}
	if want := "statement version 2 (was 1), for terminal T-1"; len(detail) != 2 || !strings.Contains(detail[1], want) ||
		!strings.Contains(detail[1], "pay_per_ticket 150,00 -> 4,00") {
		t.Fatalf("config-change records %q, want the second holding %q and the old and new limit", detail, want)
	}
	_, code := sellable(t, tb, 4_00)
	d := b.start(t, o)
	d.scan(b, code, "PLAFOND")
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(b.cfg.DataDir, ledger.LimitsStatementFile)
	_, own, _ := ed25519.GenerateKey(nil)
	forged := sign(ledger.LimitsStatement{Version: 9, Terminal: "T-1", Limits: ledger.Limits{PerTicket: ledger.MaxLimit,
		PerDay: ledger.MaxLimit, OfflinePerTicket: ledger.MaxLimit, OfflineTotal: ledger.MaxLimit}}, own)
	_, code2 := sellable(t, tb, 0)
	for name, put := range map[string]func(){
		"older":  func() { os.WriteFile(path, stmt[1], 0o644) },
		"gone":   func() { os.Remove(path) },
		"forged": func() { os.WriteFile(path, forged, 0o644) },
	} {
		put()
		d := b.start(t, o)
		d.expect("DONNÉES REFUSÉES")
		d.scan(b, code2, "DONNÉES REFUSÉES")
		if err := d.stop(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if k := kinds(records(t, b.cfg.DataDir)); k[journal.KindPayout] != 0 {
		t.Fatalf("paid on rolled-back limits: %v", k)
	}
	os.WriteFile(path, stmt[2], 0o644)
	_, code3 := sellable(t, tb, 4_00)
	d = b.start(t, o)
	d.scan(b, code3, "PLAFOND")
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
}

// sellable is a winner of a delivered pack (0..3) whose lot is above over and at most 100 €.
func sellable(t *testing.T, tb *testBlock, over int64) (codes.TicketID, string) {
	return tb.winnerWhere(t, func(tk block.Ticket) bool {
		return tk.ID.Pack < 4 && int64(tk.Lot) > over && int64(tk.Lot) <= 100_00
	})
}
