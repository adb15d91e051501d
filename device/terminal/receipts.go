package terminal

import (
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/packterm/pos/device/locale"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/validate/journal"
)

// nextSeq is the sequence the next journal record gets (the terminal is its only writer).
func (t *Terminal) nextSeq() uint64 {
	seq, _ := t.data.Journal.Head()
	return seq + 1
}

// receiptID names a receipt: terminal, this start's tag (startTag), journal sequence,
// copy letter (J player, C retailer, R claim, V sale, Z report, D duplicate), as
// "T-0042-3FA9-000042-J". It is printed as the receipt's barcode (Code 128, the journal
// number in set C: 21 symbols for a 6-character terminal id, 488 dots at 2 dots a module).
func (t *Terminal) receiptID(seq uint64, copy string) string {
	return fmt.Sprintf("%s-%s-%06d-%s", t.cfg.Terminal, t.tag, seq, copy)
}

// tagLen is the bytes of a start's tag (4 hex digits: two runs of the same journal number
// share a receipt id once in 65,536; short enough for the barcode to fit an 80 mm paper).
const tagLen = 2

// startTag draws this start's receipt tag from r: random, so that two runs of the same
// journal (a data directory put back from a copy and paid from again) or of two journals
// (a reset, a wiped data directory) never print the same receipt id for the same journal
// number. The journal's epoch could not tell the first case apart: a copy carries it.
func startTag(r io.Reader) (string, error) {
	var b [tagLen]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return "", fmt.Errorf("terminal: receipt tag: %w", err)
	}
	return strings.ToUpper(hex.EncodeToString(b[:])), nil
}

var (
	center = printer.Style{Align: printer.Center}
	title  = printer.Style{Align: printer.Center, Bold: true, DoubleHeight: true}
	big    = printer.Style{Align: printer.Center, Bold: true, DoubleWidth: true, DoubleHeight: true}
	bold   = printer.Style{Bold: true}
)

// gameName is the name of game n in block's ledger ("" when not installed).
func (t *Terminal) gameName(block uint16, n int) string {
	l := t.data.Ledgers.Get(block)
	if l == nil || n < 1 {
		return ""
	}
	gs := l.Header().Definition.Games
	if n > len(gs) {
		return ""
	}
	return gs[n-1].Name
}

// head is the top of every receipt: retailer, what it is, which copy.
func (t *Terminal) head(what, copy string) []printer.Item {
	items := []printer.Item{}
	if t.cfg.RetailerName != "" {
		items = append(items, printer.Text{Text: t.cfg.RetailerName, Style: printer.Style{Align: printer.Center, Bold: true}})
	}
	items = append(items, printer.Text{Text: what, Style: title})
	if copy != "" {
		items = append(items, printer.Text{Text: copy, Style: center})
	}
	return append(items, printer.Rule{})
}

// foot is the bottom: date, terminal, journal sequence and hash prefix, receipt barcode.
func (t *Terminal) foot(rec journal.Record, id string) []printer.Item {
	w := t.words()
	return []printer.Item{
		printer.Rule{},
		printer.Pair{Left: w.Text("receipt.date"), Right: w.FullDate(rec.Time)},
		printer.Pair{Left: w.Text("receipt.terminal"), Right: rec.Terminal},
		printer.Pair{Left: w.Text("receipt.journal"), Right: fmt.Sprint(rec.Seq)},
		printer.Pair{Left: w.Text("receipt.hash"), Right: hex.EncodeToString(rec.Hash[:8])},
		printer.Barcode{Symbology: printer.Code128, Data: id},
		printer.Feed{Lines: 1},
	}
}

func (t *Terminal) ticketLines(rec journal.Record) []printer.Item {
	id, w := rec.Ticket, t.words()
	return []printer.Item{
		printer.Pair{Left: w.Text("receipt.game"), Right: fmt.Sprintf("%d %s", rec.Game, t.gameName(id.Block, rec.Game))},
		printer.Pair{Left: w.Text("receipt.pack"), Right: fmt.Sprintf("%d-%d", id.Block, id.Pack)},
		printer.Pair{Left: w.Text("receipt.position"), Right: fmt.Sprint(id.Position)},
		printer.Pair{Left: w.Text("receipt.ticket"), Right: id.String()},
	}
}

// payoutReceipts are the player's and the retailer's copies of a payout.
func (t *Terminal) payoutReceipts(rec journal.Record) []printer.Receipt {
	var out []printer.Receipt
	w := t.words()
	for i, copy := range []string{w.Text("receipt.player_copy"), w.Text("receipt.retailer_copy")} {
		id := rec.Receipts[i]
		items := t.head(w.Text("receipt.payout"), copy)
		items = append(items, t.ticketLines(rec)...)
		items = append(items, printer.Text{Text: w.Text("receipt.amount_paid"), Style: printer.Style{Align: printer.Center, Bold: true}},
			printer.Text{Text: w.PlainMoney(rec.Amount), Style: big})
		if i == 1 {
			items = append(items, printer.Text{Text: w.Text("receipt.signature")}, printer.Feed{Lines: 2})
		}
		items = append(items, t.foot(rec, id)...)
		out = append(out, printer.Receipt{ID: id, Items: items})
	}
	return out
}

// claimReceipts is the claim receipt of a winner above the limit: nothing paid here.
func (t *Terminal) claimReceipts(rec journal.Record) []printer.Receipt {
	id, w := rec.Receipts[0], t.words()
	items := t.head(w.Text("receipt.claim"), w.Text("receipt.claim_copy"))
	items = append(items, t.ticketLines(rec)...)
	items = append(items, printer.Text{Text: w.Text("receipt.prize"), Style: printer.Style{Align: printer.Center, Bold: true}},
		printer.Text{Text: w.PlainMoney(rec.Amount), Style: big},
		printer.Text{Text: w.Text("receipt.claim_note")})
	items = append(items, t.foot(rec, id)...)
	return []printer.Receipt{{ID: id, Items: items}}
}

// saleReceipts is the receipt of a pack sale.
func (t *Terminal) saleReceipts(rec journal.Record) []printer.Receipt {
	id, w := rec.Receipts[0], t.words()
	items := t.head(w.Text("receipt.sale"), "")
	items = append(items,
		printer.Pair{Left: w.Text("receipt.pack"), Right: fmt.Sprintf("%d-%d", rec.Ticket.Block, rec.Ticket.Pack)},
		printer.Pair{Left: w.Text("receipt.sale_tickets"), Right: w.PlainMoney(rec.Amount), Style: bold})
	items = append(items, t.foot(rec, id)...)
	return []printer.Receipt{{ID: id, Items: items}}
}

// reportReceipt is the end-of-day report.
func (t *Terminal) reportReceipt(rec journal.Record, d journal.DayTotals) []printer.Receipt {
	id, w := rec.Receipts[0], t.words()
	m := w.PlainMoney
	items := t.head(w.Text("receipt.report"), d.Day)
	items = append(items,
		printer.Pair{Left: w.Text("receipt.report_sales", d.Sales), Right: m(d.SalesAmount), Style: bold},
		printer.Pair{Left: w.Text("receipt.report_payouts", d.Payouts), Right: m(d.PayoutsAmount), Style: bold})
	for g := 1; g < len(d.PerGame); g++ {
		pg := d.PerGame[g]
		items = append(items, printer.Pair{Left: w.Text("receipt.report_game", g, pg.Payouts), Right: m(pg.Amount)})
	}
	items = append(items,
		printer.Pair{Left: w.Text("receipt.report_claims", d.Claims), Right: m(d.ClaimsAmount)},
		printer.Rule{},
		printer.Pair{Left: w.Text("receipt.report_balance"), Right: m(d.SalesAmount - d.PayoutsAmount), Style: bold})
	items = append(items, t.foot(rec, id)...)
	return []printer.Receipt{{ID: id, Items: items}}
}

// duplicate is r again, marked DUPLICATA (in the language of w), under a new id.
func duplicate(w *locale.Locale, r printer.Receipt, id string) printer.Receipt {
	items := append([]printer.Item{printer.Text{Text: w.Text("receipt.duplicate"), Style: big}, printer.Text{Text: w.Text("receipt.duplicate_of", r.ID), Style: center}}, r.Items...)
	for i, it := range items {
		if b, ok := it.(printer.Barcode); ok {
			b.Data = id
			items[i] = b
		}
	}
	return printer.Receipt{ID: id, Items: items}
}

// duplicates are rs again, each marked DUPLICATA under its id of ids (nil when they do not
// pair up).
func duplicates(w *locale.Locale, rs []printer.Receipt, ids []string) []printer.Receipt {
	if len(rs) != len(ids) {
		return nil
	}
	out := make([]printer.Receipt, len(rs))
	for i, r := range rs {
		out[i] = duplicate(w, r, ids[i])
	}
	return out
}

// copyLetter is the copy letter ending a receipt id (J, C, R, V, Z, D…).
func copyLetter(id string) string {
	if i := strings.LastIndexByte(id, '-'); i >= 0 {
		return id[i+1:]
	}
	return ""
}

// receiptSeq is the journal number in a receipt id TERMINAL-TAG-SEQ-LETTER (or
// TERMINAL-SEQ-LETTER, written before receipts carried a tag; 0 when none).
func receiptSeq(id string) uint64 {
	i := strings.LastIndexByte(id, '-')
	if i <= 0 {
		return 0
	}
	j := strings.LastIndexByte(id[:i], '-')
	n, err := strconv.ParseUint(id[j+1:i], 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// originals are the receipts a reprint of record rec prints again: its own (a sale, a
// payout: both copies, a claim), or, for a reprint, those it reprinted, rebuilt from their
// record. A day's report is not rebuilt (its totals were the day's then).
func (t *Terminal) originals(rec journal.Record) []printer.Receipt {
	if rec.Kind != journal.KindReprint {
		return t.receiptsOf(rec)
	}
	ids := strings.Fields(rec.Detail)
	if len(ids) == 0 {
		return nil
	}
	seq := receiptSeq(ids[0])
	if seq == 0 || seq >= rec.Seq {
		return nil
	}
	src, ok, err := t.data.Journal.At(seq)
	if err != nil || !ok {
		return nil
	}
	var out []printer.Receipt
	for _, r := range t.receiptsOf(src) {
		if slices.Contains(ids, r.ID) {
			out = append(out, r)
		}
	}
	return out
}

// lastReceipt is the last receipt printed, rebuilt from the journal after a restart: the
// last sale, payout or claim among the journal's recent records, past the records that print
// nothing of their own (refusals, installs, locks, reprints of it). A day's report is not
// rebuilt (its totals were the day's at that moment): after a restart it ends the search.
func (t *Terminal) lastReceipt() (printer.Receipt, bool) {
	if t.last != nil {
		return *t.last, true
	}
	recent, err := t.data.Journal.Tail(reprintSearch)
	if err != nil {
		t.log.Error("terminal: journal tail", "err", err)
		return printer.Receipt{}, false
	}
	for i := len(recent) - 1; i >= 0; i-- {
		if recent[i].Kind == journal.KindReport {
			return printer.Receipt{}, false
		}
		if recent[i].Kind == journal.KindReprint {
			continue
		}
		if rs := t.receiptsOf(recent[i]); len(rs) > 0 {
			return rs[len(rs)-1], true
		}
	}
	return printer.Receipt{}, false
}

// reprintSearch is how many of the journal's last records lastReceipt looks through.
const reprintSearch = 64

// receiptsOf rebuilds the receipts of a record (same content, same ids).
func (t *Terminal) receiptsOf(rec journal.Record) []printer.Receipt {
	switch {
	case rec.Kind == journal.KindPayout && len(rec.Receipts) == 2:
		return t.payoutReceipts(rec)
	case rec.Kind == journal.KindClaim && len(rec.Receipts) == 1:
		return t.claimReceipts(rec)
	case rec.Kind == journal.KindSale && len(rec.Receipts) == 1:
		return t.saleReceipts(rec)
	case rec.Kind == journal.KindReprint:
		return duplicates(t.words(), t.originals(rec), rec.Receipts)
	}
	return nil
}
