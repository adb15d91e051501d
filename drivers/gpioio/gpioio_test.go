package gpioio_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"periph.io/x/conn/v3/gpio"

	"github.com/packterm/pos/drivers/gpioio"
	"github.com/packterm/pos/drivers/gpiosim"
)

// history returns a recorded pin's changes as (offset from start, level) pairs.
func history(p *gpiosim.Pin, start time.Time) []string {
	var out []string
	for _, c := range p.History() {
		out = append(out, c.At.Sub(start).String()+"="+c.Level.String())
	}
	return out
}

func equal(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
		return
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s = %v, want %v", what, got, want)
			return
		}
	}
}

func TestLED(t *testing.T) {
	clk := gpiosim.NewClock()
	p := gpiosim.NewPin("LED", 1, clk)
	p.Record = true
	led, err := gpioio.NewLED("red", p, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := led.Set(true); err != nil {
		t.Fatal(err)
	}
	if !led.IsOn() || p.Read() != gpio.Low {
		t.Errorf("active-low LED on: IsOn %v pin %v", led.IsOn(), p.Read())
	}
	_ = led.Set(false)
	equal(t, "LED", history(p, clk.Now()), []string{"0s=High", "0s=Low", "0s=High"})
	if _, err := gpioio.NewLED("green", nil, false); err == nil {
		t.Error("nil pin accepted")
	}
	if _, err := gpioio.NewLED("green", gpio.INVALID, false); err == nil {
		t.Error("failing pin accepted")
	}
}

func TestBuzzerPattern(t *testing.T) {
	clk := gpiosim.NewClock()
	start := clk.Now()
	p := gpiosim.NewPin("BUZ", 2, clk)
	p.Record = true
	bz, err := gpioio.NewBuzzer(p, false, clk)
	if err != nil {
		t.Fatal(err)
	}
	if err := bz.Play(context.Background(), gpioio.BeepRefused()); err != nil {
		t.Fatal(err)
	}
	equal(t, "buzzer", history(p, start), []string{"0s=Low", "0s=High", "200ms=Low", "300ms=High", "500ms=Low"})

	// Cancelled during the second beep: silent on return.
	p.ResetHistory()
	start = clk.Now()
	ctx, cancel := context.WithCancel(context.Background())
	highs := 0
	p.OnChange = func(l gpio.Level) {
		if l == gpio.High {
			if highs++; highs == 2 {
				cancel()
			}
		}
	}
	err = bz.Play(ctx, gpioio.BeepAttention())
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Play = %v, want cancelled", err)
	}
	if p.Read() != gpio.Low {
		t.Error("buzzer left sounding")
	}
	equal(t, "cancelled", history(p, start), []string{"0s=High", "80ms=Low", "160ms=High", "160ms=Low"})

	// A beep is capped.
	p.OnChange, p.Record = nil, true
	p.ResetHistory()
	start = clk.Now()
	_ = bz.Play(context.Background(), gpioio.Pattern{{On: time.Hour}})
	equal(t, "capped", history(p, start), []string{"0s=High", "2s=Low"})
}

func TestDrawer(t *testing.T) {
	clk := gpiosim.NewClock()
	p := gpiosim.NewPin("DRW", 3, clk)
	p.Record = true
	dr, err := gpioio.NewDrawer(p, false, 0, clk)
	if err != nil {
		t.Fatal(err)
	}
	start := clk.Now()
	if err := dr.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	equal(t, "drawer", history(p, start), []string{"0s=Low", "0s=High", "100ms=Low"})
	long, _ := gpioio.NewDrawer(p, false, time.Minute, clk)
	p.ResetHistory()
	start = clk.Now()
	_ = long.Open(context.Background())
	equal(t, "capped pulse", history(p, start), []string{"0s=High", "500ms=Low"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := dr.Open(ctx); err == nil || p.Read() != gpio.Low {
		t.Errorf("cancelled Open = %v, pin %v", err, p.Read())
	}
}

// The input tests run in synctest bubbles: the watchers' WaitForEdge timeouts run on the
// real clock, which inside a bubble is virtual and only moves when every goroutine of the
// test is blocked. synctest.Wait lets the watcher finish its work before the test looks,
// so the tests are deterministic however loaded the machine is, and never sleep for real.

// watch runs an input's Run loop until the test ends, and checks that it stops cleanly.
func watch(t *testing.T, run func(context.Context) error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	})
}

// after lets d of virtual time pass, then waits until the watchers are idle.
func after(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

func TestButtonDebounce(t *testing.T) { synctest.Test(t, testButtonDebounce) }

func testButtonDebounce(t *testing.T) {
	in := gpiosim.NewInput("OK", 20, false, nil)
	b, err := gpioio.NewButton("ok", in, gpioio.InputOpts{})
	if err != nil {
		t.Fatal(err)
	}
	if in.Pull() != gpio.PullUp {
		t.Errorf("pull = %v, want the pull-up of an active-low button", in.Pull())
	}
	watch(t, b.Run)
	start := time.Now()
	in.Bounce(3) // seven edges in a burst, ending pressed
	after(19 * time.Millisecond)
	if len(b.Events()) != 0 || b.Pressed() {
		t.Error("press reported before the contact was quiet for 20 ms")
	}
	after(time.Millisecond)
	ev := <-b.Events()
	if !ev.Active || ev.Input != "ok" || ev.At.Sub(start) != 20*time.Millisecond || !b.Pressed() {
		t.Errorf("event %+v after %v", ev, ev.At.Sub(start))
	}
	in.Release()
	after(20 * time.Millisecond)
	if ev := <-b.Events(); ev.Active {
		t.Errorf("event %v, want release", ev)
	}
	// A glitch shorter than the debounce time that comes back is no event.
	in.Press()
	after(5 * time.Millisecond)
	in.Release()
	after(100 * time.Millisecond)
	if len(b.Events()) != 0 || b.Pressed() {
		t.Errorf("glitch gave an event")
	}
	// A chattering contact that never settles is read after 10 debounce periods.
	for range 30 {
		in.Press()
		after(5 * time.Millisecond)
		in.Release()
		after(5 * time.Millisecond)
	}
	in.Press()
	after(100 * time.Millisecond)
	if !b.Pressed() {
		t.Error("never settled")
	}
}

func TestButtonQueueDropsWhenBusy(t *testing.T) { synctest.Test(t, testButtonQueueDropsWhenBusy) }

func testButtonQueueDropsWhenBusy(t *testing.T) {
	in := gpiosim.NewInput("CANCEL", 21, false, nil)
	b, _ := gpioio.NewButton("cancel", in, gpioio.InputOpts{})
	watch(t, b.Run)
	for range 5 { // ten events, nobody reading
		in.Press()
		after(50 * time.Millisecond)
		in.Release()
		after(50 * time.Millisecond)
	}
	if n := len(b.Events()); n != gpioio.ButtonQueue {
		t.Errorf("%d events queued, want %d", n, gpioio.ButtonQueue)
	}
	if ev := <-b.Events(); !ev.Active {
		t.Errorf("oldest kept event %v, want the first press", ev)
	}
	b.Drain()
	if n := len(b.Events()); n != 0 {
		t.Errorf("%d events after Drain", n)
	}
}

func TestTamperLatchesWhileBusy(t *testing.T) { synctest.Test(t, testTamperLatchesWhileBusy) }

func testTamperLatchesWhileBusy(t *testing.T) {
	in := gpiosim.NewInput("TAMPER", 16, true, nil)
	opts := gpioio.InputOpts{ActiveHigh: true, Pull: gpio.PullUp}
	tp, err := gpioio.NewTamper(in, opts)
	if err != nil {
		t.Fatal(err)
	}
	if st := tp.State(); st.Tripped || st.Open {
		t.Fatalf("closed case at start: %+v", st)
	}
	watch(t, tp.Run)
	// Opened and closed three times within a millisecond while nobody looks (the
	// terminal is busy paying): no debounce, every edge counts.
	start := time.Now()
	for range 3 {
		in.Press()
		in.Release()
	}
	after(time.Millisecond)
	st := tp.State()
	if !st.Tripped || st.Open || st.Edges != 6 || !st.First.Equal(start) {
		t.Errorf("state %+v", st)
	}
	select {
	case <-tp.Changed():
	default:
		t.Error("no change notification")
	}
	tp.Reset()
	if st := tp.State(); st.Tripped || st.Edges != 0 {
		t.Errorf("after reset: %+v", st)
	}
	// Open at start: tripped before Run.
	in2 := gpiosim.NewInput("TAMPER", 16, true, nil)
	in2.Press()
	tp2, _ := gpioio.NewTamper(in2, opts)
	if st := tp2.State(); !st.Tripped || !st.Open {
		t.Errorf("open at start: %+v", st)
	}
	tp2.Reset()
	if !tp2.State().Tripped {
		t.Error("reset while open cleared the latch")
	}
}

func TestRunStopsPromptly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in := gpiosim.NewInput("OK", 20, false, nil)
		b, _ := gpioio.NewButton("ok", in, gpioio.InputOpts{Poll: 50 * time.Millisecond})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { _ = b.Run(ctx); close(done) }()
		after(time.Second)
		cancel()
		start := time.Now()
		<-done
		if d := time.Since(start); d > 50*time.Millisecond {
			t.Errorf("Run took %v to stop", d)
		}
	})
}
