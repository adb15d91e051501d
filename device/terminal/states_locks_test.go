package terminal_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/device/terminal/terminaltest"
	"github.com/packterm/pos/internal/techcard"
	"github.com/packterm/pos/validate/journal"
)

const techToken = "open-sesame-42"

func tokenSHA() string {
	s := sha256.Sum256([]byte(techToken))
	return hex.EncodeToString(s[:])
}

// running is a state run alone in the background, given one input at a time.
type running struct {
	t      testing.TB
	r      *terminaltest.Rig
	ctx    context.Context
	cancel context.CancelFunc
	done   chan terminal.State
}

func startState(t testing.TB, r *terminaltest.Rig, st terminal.State) *running {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	x := &running{t: t, r: r, ctx: ctx, cancel: cancel, done: make(chan terminal.State, 1)}
	go func() { x.done <- r.Terminal.Step(ctx, st) }()
	return x
}

// do gives ev and waits until the state has taken it and waits again (or has ended).
func (x *running) do(ev terminal.Event) {
	x.t.Helper()
	n := x.r.Terminal.Received()
	if err := x.r.Terminal.Send(x.ctx, ev); err != nil {
		x.t.Fatal(err)
	}
	if err := x.r.Terminal.Taken(x.ctx, n); err != nil {
		x.t.Fatal(err)
	}
	settled := make(chan error, 1)
	go func() { _, err := x.r.Terminal.Settle(x.ctx, n); settled <- err }()
	select {
	case err := <-settled:
		if err != nil {
			x.t.Fatal(err)
		}
	case st := <-x.done:
		x.done <- st
	}
}

func (x *running) end() terminal.State {
	x.t.Helper()
	select {
	case st := <-x.done:
		return st
	case <-x.ctx.Done():
		x.t.Fatalf("state did not end: in %s", x.r.Terminal.StateName())
		return nil
	}
}

// stop ends the state (ctx cancelled) and waits for it.
func (x *running) stop() {
	x.cancel()
	<-x.done
}

func (x *running) ended() bool {
	select {
	case st := <-x.done:
		x.done <- st
		return true
	default:
		return false
	}
}

func unlock(token string) terminal.Event { return terminal.Event{Kind: terminal.EvUnlock, Text: token} }

// The tamper lock is journalled; only the technician's token with the case shut unlocks
// it (journalled, latch reset); other scans and wrong tokens do not.
func TestStateTamperLockUnlocks(t *testing.T) {
	r := newRig(t, func(o *terminaltest.Options) { o.Config.UnlockTokenSHA256 = tokenSHA() })
	r.Tamper.Open()
	code, _ := winner(t, 5_00)
	x := startState(t, r, terminal.TamperLockState(terminal.IdleState()))
	x.do(scan(code))
	x.do(unlock("wrong"))
	x.do(unlock(techToken)) // the case is still open
	if x.ended() {
		t.Fatal("unlocked")
	}
	if n := len(records(t, r, journal.KindTamper)); n != 1 {
		t.Fatalf("%d tamper records", n)
	}
	if !r.Red.On() {
		t.Error("red LED off while locked")
	}
	r.Tamper.Close()
	x.do(unlock(techToken))
	wantState(t, x.end(), "idle")
	if n := len(records(t, r, journal.KindUnlock)); n != 1 || r.Tamper.Resets() != 1 {
		t.Fatalf("%d unlock records, %d resets", n, r.Tamper.Resets())
	}
	if n := len(records(t, r, journal.KindRefused)); n != 0 {
		t.Errorf("%d refusals: a scan while locked was judged", n)
	}
}

// The technician's card, scanned, carries the token.
func TestStateTokenGateTakesTheCard(t *testing.T) {
	r := newRig(t, func(o *terminaltest.Options) { o.Config.UnlockTokenSHA256 = tokenSHA() })
	card, err := techcard.Encode([]byte(techToken))
	if err != nil {
		t.Fatal(err)
	}
	wantState(t, step(t, r, terminal.TamperLockState(nil), scan(card)), "result:unlocked")
}

// Wrong tokens are throttled: after five, even the right one is not tried until the
// pause ends.
func TestStateTokenGateThrottles(t *testing.T) {
	r := newRig(t, func(o *terminaltest.Options) { o.Config.UnlockTokenSHA256 = tokenSHA() })
	x := startState(t, r, terminal.TamperLockState(nil))
	for range 5 {
		x.do(unlock("wrong"))
	}
	x.do(unlock(techToken))
	if x.ended() {
		t.Fatal("the right token was tried during the pause")
	}
	r.Clock.Advance(2 * time.Minute)
	x.do(unlock(techToken))
	wantState(t, x.end(), "result:unlocked")
}

// With no token configured, unlock is off (fail closed), except on the emulator.
func TestStateTokenGateWithoutAToken(t *testing.T) {
	r := newRig(t)
	x := startState(t, r, terminal.TamperLockState(nil))
	x.do(unlock(techToken))
	x.do(unlock(""))
	if x.ended() {
		t.Fatal("unlocked with no token configured")
	}
	r = newRig(t, func(o *terminaltest.Options) { o.Config.OpenUnlock = true })
	wantState(t, step(t, r, terminal.TamperLockState(nil), unlock("anything")), "result:unlocked")
}

// refusedJournal is a terminal whose journal was removed: a rig that recorded a payout,
// restarted without its journal file.
func refusedJournal(t *testing.T, opt func(*terminaltest.Options)) *terminaltest.Rig {
	t.Helper()
	_, v := winner(t, 5_00)
	dir := terminaltest.TempDir(t)
	first := newRig(t, func(o *terminaltest.Options) { o.Dir = dir })
	run(t, first, terminal.PayState(v), "result:paid")
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "journal", journal.DBFile)); err != nil {
		t.Fatal(err)
	}
	return newRig(t, func(o *terminaltest.Options) {
		o.Dir = dir
		o.Config.UnlockTokenSHA256 = tokenSHA()
		if opt != nil {
			opt(o)
		}
	})
}

func TestStateStartJournalRefused(t *testing.T) {
	r := refusedJournal(t, nil)
	st, err := r.Terminal.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantState(t, st, "journal-refused")
	code, _ := winner(t, 5_00)
	x := startState(t, r, st)
	x.do(scan(code)) // judged nowhere, no guess
	x.do(unlock(techToken))
	wantState(t, x.end(), "journal-reset-offer")
}

// The technician confirms the new journal with OK; CANCEL goes back.
func TestStateJournalResetOffer(t *testing.T) {
	restarts := 0
	r := refusedJournal(t, func(o *terminaltest.Options) { o.Config.OnJournalReset = func() { restarts++ } })
	wantState(t, step(t, r, terminal.JournalResetOfferState(), press(terminal.EvCancel)), "journal-refused")
	wantState(t, stepTimeout(t, r, terminal.JournalResetOfferState()), "journal-refused")
	wantState(t, step(t, r, terminal.JournalResetOfferState(), press(terminal.EvScan), press(terminal.EvOK)), "journal-reset")
	if restarts != 1 {
		t.Errorf("%d restarts asked", restarts)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "journal", journal.DBFile)); err != nil {
		t.Errorf("no new journal: %v", err)
	}
}

func TestStateStartPlain(t *testing.T) {
	for _, c := range []struct {
		cfg  terminal.Config
		want string
	}{
		{terminal.Config{}, "idle"},
		{terminal.Config{DataRefused: true}, "result:data-refused"},
		{terminal.Config{AllDelivered: true}, "result:all-delivered"},
	} {
		r := newRig(t, func(o *terminaltest.Options) { o.Config = c.cfg })
		st, err := r.Terminal.Start(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		wantState(t, st, c.want)
	}
}

// A tamper recorded and never unlocked holds across a restart (not recorded twice).
func TestStateStartTamperHolds(t *testing.T) {
	dir := terminaltest.TempDir(t)
	r := newRig(t, func(o *terminaltest.Options) { o.Dir = dir })
	x := startState(t, r, terminal.TamperLockState(nil))
	x.do(press(terminal.EvReport)) // taken: it has recorded the tamper by then
	x.stop()
	r.Close()
	r = newRig(t, func(o *terminaltest.Options) { o.Dir = dir; o.Config.OpenUnlock = true })
	st, err := r.Terminal.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantState(t, st, "tamper-locked")
	wantState(t, step(t, r, st, unlock("x")), "idle")
	if n := len(records(t, r, journal.KindTamper)); n != 1 {
		t.Errorf("%d tamper records", n)
	}
}

// A payout recorded whose delivery a crash interrupted is finished at start: its
// receipts print once, the drawer opens once; nothing is recorded again.
func TestStateStartFinishesAnInterruptedPayout(t *testing.T) {
	_, v := winner(t, 5_00)
	dir := terminaltest.TempDir(t)
	r := newRig(t, func(o *terminaltest.Options) { o.Dir = dir })
	wantState(t, step(t, r, terminal.PayState(v)), "deliver") // the crash: before the delivery
	r.Close()
	r = newRig(t, func(o *terminaltest.Options) { o.Dir = dir })
	st, err := r.Terminal.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantState(t, st, "deliver")
	if !terminal.OpensDrawer(st) {
		t.Error("the interrupted payout's drawer stays shut")
	}
	run(t, r, st, "idle")
	if got := printed(r); got != "J C" || r.Drawer.Opens() != 1 {
		t.Errorf("printed %q, drawer %d", got, r.Drawer.Opens())
	}
	if n := len(records(t, r, journal.KindPayout)); n != 1 {
		t.Errorf("%d payouts", n)
	}
	// Done: a second restart finishes nothing.
	r.Close()
	r = newRig(t, func(o *terminaltest.Options) { o.Dir = dir })
	st, _ = r.Terminal.Start(context.Background())
	wantState(t, st, "idle")
}

// A brute-force lock holds across a restart.
func TestStateStartRestoresTheLock(t *testing.T) {
	forged, err := blk(t).Forged()
	if err != nil {
		t.Fatal(err)
	}
	dir := terminaltest.TempDir(t)
	r := newRig(t, func(o *terminaltest.Options) { o.Dir = dir })
	for range 5 {
		step(t, r, terminal.ValidationState(validationCode(t, forged)))
	}
	r.Close()
	r = newRig(t, func(o *terminaltest.Options) { o.Dir = dir })
	if _, err := r.Terminal.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	code, _ := winner(t, 5_00)
	wantState(t, step(t, r, terminal.ValidationState(validationCode(t, code))), "result:locked")
}

// Issue 47, someone at the counter guesses the technician's card and power-cycles the
// terminal to get the guesses back: 5 wrong cards, then a restart, and the 6th (the right
// one, even) is still not tried until the pause ends; each wrong card is journalled,
// never its text.
func TestWrongCardsSurviveARestart(t *testing.T) {
	dir := terminaltest.TempDir(t)
	tech := func(o *terminaltest.Options) { o.Dir = dir; o.Config.UnlockTokenSHA256 = tokenSHA() }
	r := newRig(t, tech)
	r.Tamper.Open()
	x := startState(t, r, terminal.TamperLockState(nil))
	for i := range 5 {
		card, err := techcard.Encode([]byte(fmt.Sprintf("guess-%d", i)))
		if err != nil {
			t.Fatal(err)
		}
		x.do(scan(card))
	}
	x.stop()
	wrong := records(t, r, journal.KindTokenRefused)
	if len(wrong) != 5 {
		t.Fatalf("%d wrong cards journalled", len(wrong))
	}
	for _, w := range wrong {
		if strings.Contains(w.String()+w.Detail+w.Reason, "guess-") {
			t.Fatalf("a wrong card's text journalled: %v %q", w, w.Detail)
		}
	}
	r.Close()
	r = newRig(t, tech) // restarted, the case shut
	r.Clock.Advance(30 * time.Second)
	st, err := r.Terminal.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantState(t, st, "tamper-locked")
	card, err := techcard.Encode([]byte(techToken))
	if err != nil {
		t.Fatal(err)
	}
	x = startState(t, r, st)
	x.do(scan(card))
	if x.ended() {
		t.Fatal("a restart gave the guesses back: the 6th card was tried during the pause")
	}
	if !strings.Contains(strings.Join(r.Terminal.Screen(), " "), "TROP D'ESSAIS") {
		t.Errorf("screen %q", r.Terminal.Screen())
	}
	if n := len(records(t, r, journal.KindTokenRefused)); n != 5 {
		t.Errorf("%d wrong cards journalled: a card in the pause was counted", n)
	}
	r.Clock.Advance(time.Minute)
	x.do(scan(card))
	wantState(t, x.end(), "idle")
	// The unlock clears the count: a new lock starts with five free guesses.
	r.Tamper.Open()
	r.Tamper.Close()
	x = startState(t, r, terminal.TamperLockState(nil))
	x.do(unlock("wrong"))
	x.do(unlock(techToken))
	wantState(t, x.end(), "result:unlocked")
}
