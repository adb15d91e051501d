package terminal

import (
	"context"
	"time"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/journal"
)

// lockReplay is how old a brute-force lock may be and still be restored at start.
const lockReplay = 48 * time.Hour

// replayLimit bounds how many lock and refusal records the start reads back from the
// journal's kind index: enough for any lock still running and any forged code still in
// the throttle's window, whatever the journal's size.
const replayLimit = 4096

// start rebuilds what the journal says of the terminal's state (a tamper lock not yet
// unlocked, a brute-force lock, forged codes of the last minutes; the tickets claimed here
// are the journal's own claim index) and finishes the last money operation if a crash
// interrupted it: its receipts print (again, if they were not in the spool) and the drawer
// opens. Nothing is paid or recorded twice. It reads the journal's kind index
// (journal.Latest), never every record: the last tamper and unlock records, the latest
// locks and refusals. A tamper lock holds however old it is, and however the clock was set
// at boot (a board without a real-time clock may start in 1970 or in the future).
func (t *Terminal) start(ctx context.Context) (State, error) {
	if me := t.data.Journal.Missing(); me != nil {
		t.log.Error("terminal: journal refused: nothing is sold or paid until a technician starts a new journal",
			"reason", me.Reason, "err", me)
		return journalRefused{}, nil
	}
	tamperOpen, err := t.replay(t.cfg.Clock.Now())
	if err != nil {
		t.log.Error("terminal: journal replay", "err", err)
	}
	t.checkFloors() // datafloor.go
	var next State = idle{}
	switch {
	case t.cfg.DataRefused:
		next = result{"data-refused", retail.DataRefusedScreen(), retail.SignalRefused}
	case t.keysRefused:
		next = result{"keys-refused", retail.DataRefusedScreen(), retail.SignalRefused}
	case t.firmwareKeysRefused:
		next = result{"firmware-keys-refused", retail.DataRefusedScreen(), retail.SignalRefused}
	case t.limitsRefused:
		next = result{"limits-refused", retail.DataRefusedScreen(), retail.SignalRefused}
	case t.statusRefused:
		next = result{"status-refused", retail.StatusRefusedScreen(), retail.SignalRefused}
	case t.cfg.AllDelivered:
		next = result{"all-delivered", retail.AllDeliveredScreen(), retail.SignalNone}
	}
	if t.clockWrong() {
		next = t.clockFault(next) // nothing sold or paid until the clock is set right (clock.go)
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

// replay restores the state the journal holds, from its kind index: the brute-force locks of the last 48 hours (each counts for the next one's length)
// and the forged codes since the last of them within the throttle's window. tamperOpen: the
// last tamper record is later than the last unlock.
func (t *Terminal) replay(now time.Time) (tamperOpen bool, err error) {
	j := t.data.Journal
	last := func(k journal.Kind) (uint64, error) {
		var seq uint64
		err := j.Latest(k, func(r journal.Record) bool { seq = r.Seq; return false })
		return seq, err
	}
	tamper, err := last(journal.KindTamper)
	if err != nil {
		return false, err
	}
	unlock, err := last(journal.KindUnlock)
	if err != nil {
		return false, err
	}
	tamperOpen = tamper > unlock
	var lastLock uint64 // the newest lock restored: forged codes before it were counted in it
	read := 0
	err = j.Latest(journal.KindLock, func(r journal.Record) bool {
		read++
		if age := now.Sub(r.Time); age >= 0 && age <= lockReplay {
			if d, err := time.ParseDuration(r.Detail); err == nil {
				t.throttle.restore(r.Time, d)
			}
			lastLock = max(lastLock, r.Seq)
		}
		return read < replayLimit
	})
	if err != nil {
		return tamperOpen, err
	}
	forged, read := 0, 0
	return tamperOpen, j.Latest(journal.KindRefused, func(r journal.Record) bool {
		if r.Seq <= lastLock {
			return false
		}
		read++
		if r.Reason == decide.Forged.String() && now.Sub(r.Time) < t.cfg.Throttle.Window {
			t.throttle.restoreForged(r.Time)
			forged++
		}
		// The newest Max forged codes decide the next lock as all of them would.
		return read < replayLimit && forged < t.cfg.Throttle.Max
	})
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
