package terminal_test

import (
	"context"
	"testing"
	"time"

	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/gpioio"
	"github.com/packterm/pos/drivers/gpiosim"
	"github.com/packterm/pos/validate/journal"
)

// The buttons' side of the machine (RunButtons) on the GPIO fake's contacts: OK confirms
// an offer; OK held at rest for LongPress asks for the day's report; CANCEL held asks for
// the reprint menu.
func TestMachineButtonsOnFakes(t *testing.T) {
	code, _ := winner(t, 5_00)
	r := newRig(t)
	r.Run(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := gpioio.InputOpts{Debounce: 200 * time.Microsecond, Poll: time.Millisecond, Clock: r.Clock}
	okPin, cancelPin := gpiosim.NewInput("OK", 20, false, nil), gpiosim.NewInput("CANCEL", 21, false, nil)
	ok, err := gpioio.NewButton("ok", okPin, opts)
	if err != nil {
		t.Fatal(err)
	}
	cancelB, err := gpioio.NewButton("cancel", cancelPin, opts)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{}, 3)
	for _, f := range []func(context.Context) error{ok.Run, cancelB.Run, func(ctx context.Context) error {
		return r.Terminal.RunButtons(ctx, ok, cancelB, nil)
	}} {
		go func() { _ = f(ctx); done <- struct{}{} }()
	}
	defer func() {
		cancel()
		for range 3 {
			<-done
		}
	}()
	settle := func(n uint64) string {
		t.Helper()
		wait, stop := context.WithTimeout(ctx, 5*time.Second)
		defer stop()
		if _, err := r.Terminal.Settle(wait, n); err != nil {
			t.Fatal(err)
		}
		return r.Terminal.StateName()
	}
	// seen waits until button b's debounced state is down: a press and a release closer
	// together than the debounce are one bounce.
	seen := func(b *gpioio.Button, down bool) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); b.Pressed() != down; {
			if time.Now().After(deadline) {
				t.Fatalf("%s never seen %v", b, down)
			}
			time.Sleep(100 * time.Microsecond)
		}
	}
	if got := r.Do(t, scan(code)); got != "pay-offer" {
		t.Fatalf("after the scan: %s", got)
	}
	n := r.Terminal.Received()
	okPin.Press()
	if got := settle(n); got != "result:paid" {
		t.Fatalf("after OK: %s", got)
	}
	okPin.Release()
	seen(ok, false)
	r.Do(t, press(terminal.EvCancel)) // back to idle
	// A long press at rest: the report.
	n = r.Terminal.Received()
	okPin.Press()
	settle(n) // the press itself: OK at rest does nothing
	seen(ok, true)
	r.Clock.Advance(4 * time.Second) // the default LongPress: 3 s
	n = r.Terminal.Received()
	okPin.Release()
	if got := settle(n); got != "result:report" {
		t.Fatalf("after a long OK: %s", got)
	}
	if reps := records(t, r, journal.KindReport); len(reps) != 1 {
		t.Fatalf("%d reports", len(reps))
	}
	// CANCEL held: the reprint menu, on the payout's receipts.
	r.Do(t, press(terminal.EvOK))
	n = r.Terminal.Received()
	cancelPin.Press()
	settle(n)
	seen(cancelB, true)
	r.Clock.Advance(4 * time.Second)
	n = r.Terminal.Received()
	cancelPin.Release()
	if got := settle(n); got != "reprint-menu" {
		t.Fatalf("after a long CANCEL: %s", got)
	}
}
