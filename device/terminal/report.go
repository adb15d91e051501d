package terminal

import (
	"context"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/validate/journal"
)

// report prints the end-of-day report from the journal's day summary.
type report struct{}

func (report) Name() string { return "report" }

func (report) Run(ctx context.Context, t *Terminal) State {
	t.show(retail.Busy())
	now := t.cfg.Clock.Now()
	day, err := t.data.Journal.Day(now)
	if err != nil {
		return t.journalFault(err)
	}
	seq := t.nextSeq()
	rec, err := t.record(journal.Entry{Kind: journal.KindReport, Detail: day.Day, Receipts: []string{t.receiptID(seq, "Z")}})
	if err != nil {
		return t.journalFault(err)
	}
	// The day's report closes the day's books: a signed checkpoint covers the journal up to
	// it and the day's totals.
	if _, err := t.data.Journal.Checkpoint(); err != nil {
		t.log.Error("terminal: journal checkpoint", "err", err)
	}
	r := t.reportReceipt(rec, day)
	return deliver{rec: rec, receipts: r, done: result{"report", retail.Printed("RAPPORT DU JOUR"), retail.SignalOK}}
}

// reprint prints the last receipt again, marked DUPLICATA.
type reprint struct{}

func (reprint) Name() string { return "reprint" }

func (reprint) Run(ctx context.Context, t *Terminal) State {
	r, ok := t.lastReceipt()
	if !ok {
		return result{"nothing-to-reprint", retail.NothingToReprint(), retail.SignalRefused}
	}
	seq := t.nextSeq()
	rec, err := t.record(journal.Entry{Kind: journal.KindReprint, Detail: r.ID, Receipts: []string{t.receiptID(seq, "D")}})
	if err != nil {
		return t.journalFault(err)
	}
	dup := duplicate(r, t.receiptID(seq, "D"))
	d := deliver{rec: rec, receipts: []printer.Receipt{dup}, done: result{"reprint", retail.Printed("DUPLICATA"), retail.SignalOK}}
	return d
}
