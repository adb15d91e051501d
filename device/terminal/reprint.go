package terminal

import (
	"context"
	"strconv"
	"strings"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/journal"
)

// reprintAsked is the reprint an input asks for: "" the last receipt, or a journal number
// (the emulator's "!reprint 42"); anything else reprints nothing.
func reprintAsked(text string) State {
	text = strings.TrimSpace(text)
	if text == "" {
		return reprint{}
	}
	n, err := strconv.ParseUint(text, 10, 64)
	if err != nil || n == 0 {
		return result{"nothing-to-reprint", retail.NothingToReprint(), retail.SignalRefused}
	}
	return reprint{seq: n}
}

// menuSearch bounds how many records the reprint menu looks through for the receipt
// before the one shown (records that print nothing: refusals, locks, installs).
const menuSearch = 10_000

// reprintMenu is the board's way to a duplicate of any receipt, with its two buttons:
// CANCEL held at rest shows the last record with receipts of its own by its journal number
// ("REÇU N° 57 / PAIEMENT"); OK prints its receipts again (DUPLICATA), CANCEL shows the one
// before; 2 min without an answer, or a scan, leaves it.
type reprintMenu struct{ before uint64 } // 0: from the journal's last record

func (reprintMenu) Name() string { return "reprint-menu" }

func (s reprintMenu) Run(ctx context.Context, t *Terminal) State {
	from := s.before
	if from == 0 {
		head, _ := t.data.Journal.Head()
		from = head + 1
	}
	rec, ok, err := t.previousReceipts(from)
	if err != nil {
		return t.journalFault(err)
	}
	if !ok {
		return result{"nothing-to-reprint", retail.NothingToReprint(), retail.SignalRefused}
	}
	t.show(retail.ReprintChoice(rec.Seq, receiptKind(rec.Kind)))
	t.signal(ctx, retail.SignalNone)
	since := t.cfg.Clock.Now()
	for {
		ev, ok := t.wait(ctx, t.cfg.OfferTimeout)
		switch {
		case !ok && ctx.Err() != nil:
			return nil
		case !ok:
			return idle{}
		case ev.Kind == EvOK && answered(ev, since):
			return reprint{seq: rec.Seq}
		case ev.Kind == EvCancel && answered(ev, since):
			return reprintMenu{before: rec.Seq}
		case ev.Kind == EvTamper && t.tampered():
			return tamperLock{}
		case ev.Kind == EvScan:
			return t.scanned(ev)
		case ev.Kind == EvScannerGone, ev.Kind == EvScannerBack:
			t.setScanner(ev.Kind == EvScannerBack)
		}
	}
}

// previousReceipts is the last sale, payout or claim record before record from.
func (t *Terminal) previousReceipts(from uint64) (journal.Record, bool, error) {
	for seq, n := from-1, 0; seq > 0 && n < menuSearch; seq, n = seq-1, n+1 {
		rec, ok, err := t.data.Journal.At(seq)
		if err != nil {
			return journal.Record{}, false, err
		}
		if ok && receiptKind(rec.Kind) != "" && len(t.receiptsOf(rec)) > 0 {
			return rec, true, nil
		}
	}
	return journal.Record{}, false, nil
}

// receiptKind names what a record's receipts are, for the reprint menu ("" none of its own).
func receiptKind(k journal.Kind) retail.ReceiptKind {
	switch k {
	case journal.KindPayout:
		return retail.PayoutReceipt
	case journal.KindClaim:
		return retail.ClaimReceipt
	case journal.KindSale:
		return retail.SaleReceipt
	}
	return ""
}
