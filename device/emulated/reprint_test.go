package emulated

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
)

// TestReprintAfterRestart: after a restart the last receipt is rebuilt from the journal even
// when records that print nothing came after it (a refused code here); after a day's report
// (not rebuilt: its totals were the day's then) there is nothing to reprint.
func TestReprintAfterRestart(t *testing.T) {
	tb := newTestBlock(t)
	dir := t.TempDir()
	var mu sync.Mutex
	var got []printeremul.Receipt
	start := func() *e2e {
		t.Helper()
		return rigOn(t, tb, Options{Dir: dir, AllDelivered: true,
			OnReceipt: func(_ int, r printeremul.Receipt) { mu.Lock(); got = append(got, r); mu.Unlock() }})
	}
	e := start()
	five := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
	e.do(tb.code(five), "!ok")
	e.expect("PAYÉ 5,00 €")
	e.do(codes.ValidationCodeOf(codes.TicketID{Block: testBlockNumber + 1, Pack: 0, Position: 1}, [codes.SecretSize]byte{1}).String())
	e.expect("BLOC INCONNU")
	if err := e.rig.Close(); err != nil {
		t.Fatal(err)
	}

	e = start()
	mu.Lock()
	before := len(got)
	mu.Unlock()
	e.do("!reprint")
	e.expect("DUPLICATA")
	var dup string
	for deadline := time.Now().Add(10 * time.Second); dup == "" && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		mu.Lock()
		if len(got) > before {
			dup = got[before].PlainText()
		}
		mu.Unlock()
	}
	if !strings.Contains(dup, "DUPLICATA") || !strings.Contains(dup, "5,00 €") || !strings.Contains(dup, "COPIE COMMERÇANT") {
		t.Errorf("duplicate after the restart:\n%s", dup)
	}
	e.do("!report")
	e.expect("RAPPORT DU JOUR")
	if err := e.rig.Close(); err != nil {
		t.Fatal(err)
	}

	e = start()
	defer e.rig.Close()
	e.do("!reprint")
	e.expect("AUCUN REÇU")
}
