package terminal

import (
	"context"

	"github.com/packterm/pos/device/retail"
)

// journalRefused holds a terminal whose journal was refused (journal.ErrMissing: the file
// removed, emptied or replaced by an older one on a terminal that had a journal): JOURNAL
// EFFACÉ, nothing sold, judged or paid. Only a technician starts a new journal: their token,
// scanned from their card or given as an unlock input, then OK (journalResetOffer). As in
// the tamper lock, the token goes through the token gate (tokengate.go): other scans are
// answered TERMINAL VERROUILLÉ and are no guess, wrong tokens are throttled.
type journalRefused struct{}

func (journalRefused) Name() string { return "journal-refused" }
func (journalRefused) quiet()       {} // at rest: a restart after an install may come

func (journalRefused) Run(ctx context.Context, t *Terminal) State {
	g := t.newGate("journal refused", retail.JournalRefused()) // a refused journal reads nothing back
	t.show(g.rest)
	t.signal(ctx, retail.SignalAttention)
	t.readyOne.Do(func() { close(t.ready) })
	ev, ok := t.awaitToken(ctx, g)
	if !ok {
		return nil
	}
	return journalResetOffer{by: "technician (token " + ev.Kind.String() + ")"}
}

// journalResetOffer asks the technician to confirm a new journal: OK starts it
// (journal.Journal.Reset, recorded as its first record); CANCEL or OfferTimeout go back.
type journalResetOffer struct{ by string }

func (journalResetOffer) Name() string { return "journal-reset-offer" }

func (s journalResetOffer) Run(ctx context.Context, t *Terminal) State {
	t.show(retail.JournalResetOffer())
	t.signal(ctx, retail.SignalNone)
	for {
		ev, ok := t.wait(ctx, t.cfg.OfferTimeout)
		switch {
		case !ok && ctx.Err() != nil:
			return nil
		case !ok || ev.Kind == EvCancel:
			t.log.Info("terminal: journal refused: no new journal (cancelled)")
			return journalRefused{}
		case ev.Kind != EvOK:
			continue
		}
		r, err := t.data.Journal.Reset(s.by)
		if err != nil {
			t.log.Error("terminal: new journal not started", "err", err)
			return journalRefused{}
		}
		t.log.Warn("terminal: a technician started a new journal", "first record", r.ID(), "detail", r.Detail)
		if t.cfg.OnJournalReset != nil {
			t.cfg.OnJournalReset()
		}
		return journalResetDone{restarting: t.cfg.OnJournalReset != nil}
	}
}

// journalResetDone waits for the restart that opens the new journal.
type journalResetDone struct{ restarting bool }

func (journalResetDone) Name() string { return "journal-reset" }
func (journalResetDone) quiet()       {}

func (s journalResetDone) Run(ctx context.Context, t *Terminal) State {
	t.show(retail.JournalResetDone(s.restarting))
	t.signal(ctx, retail.SignalOK)
	for {
		ev, ok := t.wait(ctx, 0)
		if !ok {
			return nil
		}
		if ev.Kind == EvScannerGone || ev.Kind == EvScannerBack {
			t.setScanner(ev.Kind == EvScannerBack)
		}
	}
}
