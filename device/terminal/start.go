package terminal

import (
	"context"
	"time"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/journal"
)

// lockReplay is how old a brute-force lock may be and still be restored at start.
const lockReplay = 48 * time.Hour

// start rebuilds what the journal says of the terminal's state (a tamper lock not yet
// unlocked, a brute-force lock, forged codes of the last minutes, the tickets claimed here)
// and finishes the last money operation if a crash interrupted it: its receipts print
// (again, if they were not in the spool) and the drawer opens. Nothing is paid or recorded
// twice. The whole journal is replayed, in sequence order: a tamper lock and a claim hold
// however old they are, and however the clock was set at boot (a board without a
// real-time clock may start in 1970 or in the future).
func (t *Terminal) start(ctx context.Context) (State, error) {
	if me := t.data.Journal.Missing(); me != nil {
		t.log.Error("terminal: journal refused: nothing is sold or paid until a technician starts a new journal",
			"reason", me.Reason, "err", me)
		return journalRefused{}, nil
	}
	now := t.cfg.Clock.Now()
	tamperOpen := false
	err := t.data.Journal.Each(time.Time{}, func(r journal.Record) error {
		switch r.Kind {
		case journal.KindTamper:
			tamperOpen = true
		case journal.KindUnlock:
			tamperOpen = false
		case journal.KindLock:
			if age := now.Sub(r.Time); age < 0 || age > lockReplay {
				return nil
			}
			d, err := time.ParseDuration(r.Detail)
			if err == nil {
				t.throttle.restore(r.Time, d)
			}
			t.throttle.mu.Lock()
			t.throttle.recent = t.throttle.recent[:0]
			t.throttle.mu.Unlock()
		case journal.KindRefused:
			if r.Reason == retail.Forged.String() && now.Sub(r.Time) < t.cfg.Throttle.Window {
				t.throttle.restoreForged(r.Time)
			}
		}
		return nil
	})
	if err != nil {
		t.log.Error("terminal: journal replay", "err", err)
	}
	var next State = idle{}
	switch {
	case t.cfg.DataRefused:
		next = result{"data-refused", retail.DataRefusedScreen(), retail.SignalRefused}
	case t.cfg.AllDelivered:
		next = result{"all-delivered", retail.AllDeliveredScreen(), retail.SignalNone}
	}
	if last, ok := t.unfinished(); ok {
		t.log.Warn("terminal: finishing the operation a restart interrupted", "seq", last.Seq, "kind", last.Kind.String())
		next = deliver{rec: last, receipts: t.receiptsOf(last), drawer: last.Kind == journal.KindPayout, done: next}
	}
	if tamperOpen || t.tampered() {
		next = tamperLock{then: next, recorded: tamperOpen && !t.tampered()}
	}
	if err := t.data.Journal.Health(); err != nil {
		t.log.Error("terminal: journal unhealthy: no sale or payout", "err", err)
	}
	return next, nil
}

// unfinished is the last sale, payout or claim recorded after the last finished operation
// (a tamper or a refusal may follow it in the journal: a fault, then the case opened, then a
// crash).
func (t *Terminal) unfinished() (journal.Record, bool) {
	done := t.lastDone()
	recent, err := t.data.Journal.Tail(16)
	if err != nil {
		t.log.Error("terminal: journal tail", "err", err)
		return journal.Record{}, false
	}
	for i := len(recent) - 1; i >= 0; i-- {
		r := recent[i]
		if r.Seq <= done {
			break
		}
		if len(t.receiptsOf(r)) > 0 {
			return r, true
		}
	}
	return journal.Record{}, false
}
