package terminal

import (
	"context"
	"errors"
	"strings"

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
	day, err := t.data.Journal.Today(now)
	if err != nil {
		return t.journalFault(err)
	}
	r, err := t.recordWithReceipts(journal.Entry{Kind: journal.KindReport, Detail: day.Day}, []string{"Z"},
		func(rec journal.Record) []printer.Receipt { return t.reportReceipt(rec, day) })
	var se *storageError
	switch {
	case errors.As(err, &se):
		return t.storageFault(err, nil)
	case err != nil:
		return t.journalFault(err)
	}
	// The day's report closes the day's books: a signed checkpoint covers the journal up to
	// it and the day's totals.
	if _, err := t.data.Journal.Checkpoint(); err != nil {
		t.log.Error("terminal: journal checkpoint", "err", err)
	}
	return delivery(r, false, result{"report", retail.ReportPrinted(), retail.SignalOK})
}

// reprint prints receipts again, marked DUPLICATA, and journals it (a reprint record: the
// ids reprinted in Detail, the duplicates' ids in Receipts): those of journal record seq
// (all its receipts), or, seq 0, the last receipt printed.
type reprint struct {
	seq  uint64
	done State // nil: DUPLICATA IMPRIMÉ
}

func (reprint) Name() string { return "reprint" }

func (s reprint) Run(ctx context.Context, t *Terminal) State {
	var orig []printer.Receipt
	if s.seq == 0 {
		if r, ok := t.lastReceipt(); ok {
			orig = []printer.Receipt{r}
		}
	} else {
		rec, ok, err := t.data.Journal.At(s.seq)
		if err != nil {
			return t.journalFault(err)
		}
		if ok {
			orig = t.originals(rec)
		}
	}
	if len(orig) == 0 {
		return result{"nothing-to-reprint", retail.NothingToReprint(), retail.SignalRefused}
	}
	var ids, letters []string
	for _, r := range orig {
		ids = append(ids, r.ID)
		letters = append(letters, "D"+copyLetter(r.ID))
	}
	r, err := t.recordWithReceipts(journal.Entry{Kind: journal.KindReprint, Detail: strings.Join(ids, " ")}, letters,
		func(rec journal.Record) []printer.Receipt { return duplicates(t.words(), orig, rec.Receipts) })
	var se *storageError
	switch {
	case errors.As(err, &se):
		return t.storageFault(err, nil)
	case err != nil:
		return t.journalFault(err)
	}
	done := s.done
	if done == nil {
		done = result{"reprint", retail.DuplicatePrinted(), retail.SignalOK}
	}
	return delivery(r, false, done)
}
