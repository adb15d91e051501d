package emulated

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// TestTwoBlocks: with the ledgers of two blocks installed, the terminal sells the packs of
// either and pays the winners of either (each code answered by its own block's ledger, the
// receipt naming the game from that ledger); a code or a pack of a third block is refused as
// an unknown block; two ledgers of one block are refused at start.
func TestTwoBlocks(t *testing.T) {
	older, newer := newTestBlockOf(t, testBlockNumber), newTestBlockOf(t, testBlockNumber+2)
	var mu sync.Mutex
	var receipts []printeremul.Receipt
	rig, err := Start(context.Background(), Options{Dir: t.TempDir(), Ledgers: []*ledger.Ledger{newer.ledger, older.ledger},
		AllDelivered: true, PerTicket: 20_00,
		OnReceipt: func(_ int, r printeremul.Receipt) { mu.Lock(); receipts = append(receipts, r); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer rig.Close()
	e := &e2e{t: t, tb: older, rig: rig}

	for _, tb := range []*testBlock{older, newer} {
		e.do(codes.PackCode{Block: tb.number, Pack: 3}.String())
		e.expect("PAQUET 3", "10,00 €")
		e.do("!ok")
		e.expect("VENDU 10,00 €")
		if _, sold, _ := rig.Journal.Sold(tb.number, 3); !sold {
			t.Errorf("pack 3 of block %d not sold", tb.number)
		}
		five := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
		e.do(tb.code(five))
		e.expect("GAGNANT 5,00 €")
		e.do("!ok")
		e.expect("PAYÉ 5,00 €")
		if n := e.count(journal.KindPayout, five); n != 1 {
			t.Errorf("block %d: %d payouts", tb.number, n)
		}
		// The other block's secret does not open this block's entry.
		other := older
		if tb == older {
			other = newer
		}
		forged := codes.ValidationCodeOf(five, other.tickets[codes.TicketID{Block: other.number, Pack: five.Pack, Position: five.Position}].Secret)
		e.do(forged.String())
		e.expect("CODE REFUSÉ")
	}
	mu.Lock()
	var payout string
	for _, r := range receipts {
		if txt := r.PlainText(); strings.Contains(txt, "COPIE JOUEUR") {
			payout = txt
			break
		}
	}
	mu.Unlock()
	five := older.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
	if name := older.ledger.Header().Definition.Games[five.Position-1].Name; !strings.Contains(payout, name) {
		t.Errorf("payout receipt lacks the game name %q:\n%s", name, payout)
	}

	third := codes.TicketID{Block: testBlockNumber + 1, Pack: 0, Position: 1}
	e.do(codes.ValidationCodeOf(third, [codes.SecretSize]byte{1}).String())
	e.expect("BLOC INCONNU")
	e.do(codes.PackCode{Block: testBlockNumber + 1, Pack: 0}.String())
	e.expect("BLOC INCONNU")

	_, err = Start(context.Background(), Options{Dir: t.TempDir(), Ledgers: []*ledger.Ledger{older.ledger, older.ledger}})
	if !errors.Is(err, ledger.ErrDuplicateBlock) {
		t.Errorf("two ledgers of one block: %v", err)
	}
	if v := retail.Judge(rig.Ledgers, nil, codes.ValidationCodeOf(third, [codes.SecretSize]byte{1}).String()); v.Outcome != decide.UnknownBlock {
		t.Errorf("third block: %v", v.Outcome)
	}
}
