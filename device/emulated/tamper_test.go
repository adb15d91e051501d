package emulated

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/internal/techcard"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// TestTamperLockOutlivesRestarts: a tamper lock holds across restarts however long the
// terminal stayed off (31 days here, past any replay window) and whatever the clock says at
// boot (a board without a real-time clock may start in 1970); while locked, a scanned
// winner is not judged; the technician's card, scanned, unlocks it.
func TestTamperLockOutlivesRestarts(t *testing.T) {
	tb := newTestBlock(t)
	dir := t.TempDir()
	const token = "TECH-7Q2M-91XD-44PL"
	sum := sha256.Sum256([]byte(token))
	five := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
	start := func(at time.Time) *e2e {
		t.Helper()
		return rigOn(t, tb, Options{Dir: dir, Clock: clockwork.NewFakeClockAt(at), UnlockTokenSHA256: hex.EncodeToString(sum[:])})
	}
	stop := func(e *e2e) {
		t.Helper()
		if err := e.rig.Close(); err != nil {
			t.Fatal(err)
		}
	}
	day := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	e := start(day)
	e.do("!tamper")
	e.expect("TERMINAL BLOQUÉ")
	stop(e)

	for _, at := range []time.Time{day.Add(31 * 24 * time.Hour), time.Unix(0, 0).UTC()} {
		e = start(at)
		e.expect("TERMINAL BLOQUÉ")
		e.do(e.tb.code(five), "!unlock WRONG-TOKEN")
		e.expect("CARTE REFUSÉE")
		if n := e.count(journal.KindUnlock, five); n != 0 {
			t.Fatalf("%d unlocks", n)
		}
		stop(e)
	}

	e = start(day.Add(32 * 24 * time.Hour))
	e.expect("TERMINAL BLOQUÉ")
	e.do(card(t, token))
	e.expect("SCANNEZ UN CODE") // unlocked, back to idle
	e.do(e.tb.code(five))
	e.expect("GAGNANT")
	if n := e.count(journal.KindTamper, five); n != 0 {
		t.Errorf("tamper recorded with a ticket: %d", n)
	}
	var tampers, unlocks int
	if err := e.rig.Journal.Each(time.Time{}, func(r journal.Record) error {
		switch r.Kind {
		case journal.KindTamper:
			tampers++
		case journal.KindUnlock:
			unlocks++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if tampers != 1 || unlocks != 1 {
		t.Errorf("%d tamper and %d unlock records, want 1 each", tampers, unlocks)
	}
	stop(e)

	// Unlocked stays unlocked.
	e = start(day.Add(33 * 24 * time.Hour))
	e.expect("SCANNEZ UN CODE")
	stop(e)
}

// TestClaimOutlivesRestarts: a ticket claimed here (above the limit then) is never paid here,
// however long ago the claim was: 31 days later, with the limit raised above its lot, it
// still gets a claim receipt and no payout.
func TestClaimOutlivesRestarts(t *testing.T) {
	tb := newTestBlock(t)
	dir := t.TempDir()
	five := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
	day := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	e := rigOn(t, tb, Options{Dir: dir, AllDelivered: true, PerTicket: 3_00, Clock: clockwork.NewFakeClockAt(day)})
	e.do(tb.code(five))
	e.expect("CENTRE DE PAIEMENT")
	if err := e.rig.Close(); err != nil {
		t.Fatal(err)
	}
	e = rigOn(t, tb, Options{Dir: dir, AllDelivered: true, PerTicket: 20_00, Clock: clockwork.NewFakeClockAt(day.Add(31 * 24 * time.Hour))})
	defer e.rig.Close()
	e.do(tb.code(five))
	e.expect("CENTRE DE PAIEMENT")
	if n := e.count(journal.KindPayout, five); n != 0 {
		t.Errorf("a ticket claimed here was paid here: %d payouts", n)
	}
}

// TestUnlockGuessesThrottled: after 5 wrong cards the right one is not even tried for a
// minute (a short token cannot be found by scanning guesses in a loop), and the screen says
// so with the time left; a minute later it unlocks.
func TestUnlockGuessesThrottled(t *testing.T) {
	tb := newTestBlock(t)
	const token = "T-1234"
	sum := sha256.Sum256([]byte(token))
	clock := clockwork.NewFakeClockAt(time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC))
	e := rigOn(t, tb, Options{Dir: t.TempDir(), Clock: clock, UnlockTokenSHA256: hex.EncodeToString(sum[:])})
	defer e.rig.Close()
	e.do("!tamper")
	for i := range 4 {
		e.do(card(t, "T-000"+string(rune('0'+i))))
		e.expect("CARTE REFUSÉE")
	}
	e.do(card(t, "T-0004"))
	e.expect("TROP D'ESSAIS FAUX", "CARTE ACCEPTÉE DANS", "1 MIN") // the pause is on the screen
	e.do(card(t, token))
	e.expect("TROP D'ESSAIS FAUX")
	clock.Advance(59 * time.Second)
	e.do(card(t, token))
	e.expect("TROP D'ESSAIS FAUX")
	clock.Advance(2 * time.Second)
	e.waitScreen("TERMINAL BLOQUÉ") // the pause is over: the lock's own screen again
	e.do(card(t, token))
	e.expect("TERMINAL DÉBLOQUÉ")
}

// card is the text of the technician's card for token (posctl keys card).
func card(t *testing.T, token string) string {
	t.Helper()
	s, err := techcard.Encode([]byte(token))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRetailerScansAreNoGuesses: while tamper-locked, the retailer's scans (a pack, a
// ticket, a winner, a bare token, garbage) are answered TERMINAL VERROUILLÉ and are no
// guesses at the token: after ten of them the technician's card still unlocks at once.
// Before, each counted as a wrong token: five locked the card out for a minute, doubling
// to a day, with nothing on the screen.
func TestRetailerScansAreNoGuesses(t *testing.T) {
	tb := newTestBlock(t)
	const token = "TECH-7Q2M-91XD-44PL"
	sum := sha256.Sum256([]byte(token))
	clock := clockwork.NewFakeClockAt(time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC))
	e := rigOn(t, tb, Options{Dir: t.TempDir(), Clock: clock, UnlockTokenSHA256: hex.EncodeToString(sum[:])})
	defer e.rig.Close()
	five := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
	e.do("!tamper")
	for range 2 {
		for _, s := range []string{tb.code(five), codes.PackCode{Block: testBlockNumber, Pack: 1}.String(), codes.TicketCodeOf(five).String(), token, "HELLO WORLD"} {
			e.do(s)
			e.expect("TERMINAL VERROUILLÉ", "CODE IGNORÉ")
		}
	}
	clock.Advance(21 * time.Second)
	e.waitScreen("TERMINAL BLOQUÉ") // the answer goes, the lock's screen comes back
	e.do(card(t, token))
	e.expect("TERMINAL DÉBLOQUÉ")
	if n := e.count(journal.KindPayout, five); n != 0 {
		t.Errorf("%d payouts while locked", n)
	}
}

// TestOpenUnlockWithoutToken: the emulator with no token configured is open to !unlock, as
// docs/terminal.md says, even after the retailer scanned codes while locked (before, those
// scans counted as wrong tokens and paused !unlock for a minute).
func TestOpenUnlockWithoutToken(t *testing.T) {
	tb := newTestBlock(t)
	e := rigOn(t, tb, Options{Dir: t.TempDir(), Clock: clockwork.NewFakeClockAt(time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC))})
	defer e.rig.Close()
	five := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
	e.do("!tamper")
	for range 6 {
		e.do(tb.code(five))
	}
	e.do("!unlock")
	e.expect("TERMINAL DÉBLOQUÉ")
}
