package emulated

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// TestEnglishTerminal: with Language "en" the terminal's screens, on the emulated panel
// too, and its receipts are in English, amounts the English way; the sale and the payout
// are recorded as in French.
func TestEnglishTerminal(t *testing.T) {
	tb := newTestBlock(t)
	e := &e2e{t: t, tb: tb, clock: clockwork.NewFakeClockAt(time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC))}
	var err error
	e.rig, err = Start(context.Background(), Options{
		Dir: t.TempDir(), Display: "20x4", Ledgers: []*ledger.Ledger{tb.ledger}, AllDelivered: true, PerTicket: 20_00,
		Clock: e.clock, Language: "en",
		OnReceipt: func(_ int, r printeremul.Receipt) { e.mu.Lock(); e.receipts = append(e.receipts, r); e.mu.Unlock() },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.rig.Close(); err != nil {
			t.Error(err)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	select {
	case <-e.rig.Terminal.Ready():
	case <-ctx.Done():
		t.Fatal("terminal not ready")
	}
	e.do("!ok") // past the start screen (all delivered)
	e.expect("SCAN A CODE")

	e.do(codes.PackCode{Block: testBlockNumber, Pack: 2}.String())
	e.expect("PACK 2", "PRICE €10.00", "OK: SELL")
	e.do("!ok")
	e.expect("SOLD €10.00")
	if txt := e.waitReceipts(1)[0].PlainText(); !strings.Contains(txt, "SALE OF A PACK") || !strings.Contains(txt, "€10.00") {
		t.Errorf("sale receipt:\n%s", txt)
	}

	five := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
	e.do(tb.code(five))
	e.expect("WINNER", "€5.00", "OK: PAY")
	e.do("!ok")
	e.expect("PAID €5.00")
	rs := e.waitReceipts(3)
	for i, copy := range []string{"PLAYER'S COPY", "RETAILER'S COPY"} {
		if txt := rs[1+i].PlainText(); !strings.Contains(txt, copy) || !strings.Contains(txt, "AMOUNT PAID") || !strings.Contains(txt, "€5.00") {
			t.Errorf("payout receipt %d:\n%s", i, txt)
		}
	}
}
