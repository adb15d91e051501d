package terminal

import (
	"context"
	"time"
)

// EventKind tells what happened.
type EventKind int

// Events the terminal reacts to.
const (
	EvScan        EventKind = iota + 1 // a code read (Text, Symbology)
	EvOK                               // OK button pressed
	EvCancel                           // CANCEL button pressed
	EvTamper                           // the tamper switch changed
	EvUnlock                           // technician unlock (Text: the token)
	EvReport                           // end-of-day report asked for
	EvReprint                          // reprint asked for: Text "" the last receipt, or a journal number
	EvPrinter                          // the printer may have changed state: look again
	EvScannerGone                      // the scanner vanished
	EvScannerBack                      // the scanner is back
	EvReprintMenu                      // the board's CANCEL held at rest: choose a receipt to reprint
)

var eventNames = map[EventKind]string{
	EvScan: "scan", EvOK: "ok", EvCancel: "cancel", EvTamper: "tamper", EvUnlock: "unlock", EvReport: "report",
	EvReprint: "reprint", EvPrinter: "printer", EvScannerGone: "scanner-gone", EvScannerBack: "scanner-back",
	EvReprintMenu: "reprint-menu",
}

func (k EventKind) String() string { return eventNames[k] }

// Event is one input.
type Event struct {
	Kind      EventKind
	Text      string // scanned text, unlock token
	Symbology string // AIM identifier of a scan ("" when the scanner sends none)
	Source    string // where a scan came from ("serial:…", "image:…")
	At        time.Time
}

// Send queues an input; it blocks while the queue is full, until ctx ends.
func (t *Terminal) Send(ctx context.Context, ev Event) error {
	if ev.At.IsZero() {
		ev.At = t.cfg.Clock.Now()
	}
	select {
	case t.events <- ev:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// wait returns the next input, or ok false after d (d <= 0: no timeout) or when ctx ends
// (then t.stopping is set).
func (t *Terminal) wait(ctx context.Context, d time.Duration) (ev Event, ok bool) {
	var timeout <-chan time.Time
	var due time.Time
	if d > 0 {
		due = t.cfg.Clock.Now().Add(d)
		tm := t.cfg.Clock.NewTimer(d)
		defer tm.Stop()
		timeout = tm.Chan()
	}
	t.setWaiting(true, due)
	defer t.setWaiting(false, time.Time{})
	select {
	case ev := <-t.events:
		t.consumed()
		return ev, true
	case <-timeout:
		t.timedOut()
		return Event{}, false
	case <-ctx.Done():
		return Event{}, false
	}
}
