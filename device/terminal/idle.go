package terminal

import (
	"context"
	"errors"
	"time"

	"github.com/packterm/pos/device/codemap"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
)

// idle waits for a code or a command: "SCANNEZ UN CODE".
type idle struct{}

func (idle) Name() string { return "idle" }
func (idle) quiet()       {}

func (idle) Run(ctx context.Context, t *Terminal) State {
	t.show(t.restScreen())
	t.signal(ctx, retail.SignalNone)
	t.readyOne.Do(func() { close(t.ready) })
	for {
		ev, ok := t.wait(ctx, t.cfg.StatusPoll)
		if !ok && ctx.Err() != nil {
			return nil
		}
		if !ok { // at rest, the panel and the printer are asked now and then: a fault shows before a sale
			if t.clockWrong() {
				return t.clockFault(idle{})
			}
			if t.raiseFleetFloors() { // datafloor.go: the fleet's floors refuse more now
				t.show(t.restScreen())
			}
			if next := t.checkDisplay(idle{}); next != nil {
				return next
			}
			if next := t.checkPrinter(ctx, idle{}); next != nil {
				return next
			}
			continue
		}
		if next := t.dispatch(ctx, ev); next != nil {
			return next
		}
	}
}

// restScreen is the screen at rest: SCANNEZ UN CODE, unless nothing can be paid, which
// shows at rest too: a journal that cannot record (its no-payout state, journal.Health:
// JOURNAL EN DÉFAUT / PAIEMENTS BLOQUÉS), installed data refused (DONNÉES REFUSÉES), or
// data never installed (À INSTALLER : …, Config.Missing).
func (t *Terminal) restScreen() retail.Screen {
	switch {
	case t.data.Journal.Health() != nil:
		return retail.FaultScreen(retail.FaultJournal, false)
	case t.cfg.DataRefused, t.keysRefused, t.firmwareKeysRefused, t.limitsRefused:
		return retail.DataRefusedScreen()
	case t.statusRefused:
		return retail.StatusRefusedScreen()
	case t.cfg.Missing != 0:
		return retail.MissingScreen(t.cfg.Missing)
	}
	return retail.Idle()
}

// result shows an outcome until the next input or ResultTimeout, then goes back to idle.
type result struct {
	name   string
	screen retail.Screen
	sig    retail.Signal
}

func (r result) Name() string { return "result:" + r.name }
func (result) quiet()         {}

func (r result) Run(ctx context.Context, t *Terminal) State {
	t.show(r.screen)
	t.signal(ctx, r.sig)
	t.readyOne.Do(func() { close(t.ready) })
	for {
		ev, ok := t.wait(ctx, t.cfg.ResultTimeout)
		if !ok {
			if ctx.Err() != nil {
				return nil
			}
			return idle{}
		}
		if ev.Kind == EvOK || ev.Kind == EvCancel {
			return idle{}
		}
		if next := t.dispatch(ctx, ev); next != nil {
			return next
		}
	}
}

// dispatch is what idle and result screens do with an input; nil means "stay".
func (t *Terminal) dispatch(ctx context.Context, ev Event) State {
	switch ev.Kind {
	case EvScan, EvReport, EvReprint, EvReprintMenu:
		if t.clockWrong() { // nothing is sold, judged, paid or reported on a clock set back
			return t.clockFault(nil)
		}
	}
	switch ev.Kind {
	case EvScan:
		return t.scanned(ev)
	case EvTamper:
		if t.tampered() {
			return tamperLock{}
		}
	case EvReport:
		return report{}
	case EvReprint:
		return reprintAsked(ev.Text)
	case EvReprintMenu:
		return reprintMenu{}
	case EvScannerGone:
		t.setScanner(false)
		return fault{kind: retail.FaultScanner, then: idle{}}
	case EvScannerBack:
		t.setScanner(true)
	case EvPrinter:
		return t.checkPrinter(ctx, idle{})
	}
	return nil
}

func (t *Terminal) setScanner(on bool) {
	t.mu.Lock()
	t.scanner = on
	t.mu.Unlock()
}

// checkPrinter flushes the spool and reads the printer's status: a fault goes to the fault
// state (then resumes with then).
func (t *Terminal) checkPrinter(ctx context.Context, then State) State {
	if k, pending, ok := t.printerFault(ctx); !ok {
		return fault{kind: k, pending: pending, then: then}
	}
	return nil
}

// printerFault prints what waits in the spool and asks the printer's status; ok is true
// when the spool is empty and the printer ready.
func (t *Terminal) printerFault(ctx context.Context) (k retail.Fault, pending, ok bool) {
	_, err := t.parts.Printer.Flush(ctx)
	var fe *printer.FaultError
	if errors.As(err, &fe) {
		return faultOf(fe), fe.Pending > 0, false
	}
	if err != nil {
		t.log.Error("terminal: spool", "err", err)
	}
	st, err := t.parts.Printer.Status(ctx)
	switch {
	case err != nil:
		return retail.FaultOffline, false, false
	case st.PaperEnd || st.PaperStop:
		return retail.FaultPaper, false, false
	case st.CoverOpen:
		return retail.FaultCover, false, false
	case st.Offline:
		return retail.FaultOffline, false, false
	case !st.Ready():
		return retail.FaultPrinter, false, false
	}
	return 0, false, true
}

// scanned decides what a code is and where it leads.
func (t *Terminal) scanned(ev Event) State {
	t.observer().Scanned()
	kind, c, err := codemap.Parse(ev.Text, ev.Symbology)
	if err != nil {
		v := retail.Verdict{Outcome: decide.Invalid, Err: err}
		t.log.Info("terminal: code refused", "kind", kind.String(), "err", err)
		if kind == codes.KindValidation {
			t.journalRefusal(v)
		}
		return result{"invalid", retail.NotACode(v), retail.SignalRefused}
	}
	switch v := c.(type) {
	case codes.PackCode:
		return sale{pack: v}
	case codes.TicketCode:
		return result{"ticket", retail.TicketHint(), retail.SignalNone}
	case codes.ValidationCode:
		return validation{code: v}
	}
	return result{"invalid", retail.NotACode(retail.Verdict{Outcome: decide.Invalid}), retail.SignalRefused}
}

// answered reports whether ev answers an offer made at since (a press made before the offer
// was shown must not confirm it).
func answered(ev Event, since time.Time) bool {
	return (ev.Kind == EvOK || ev.Kind == EvCancel) && !ev.At.Before(since)
}
