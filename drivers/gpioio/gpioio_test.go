package gpioio_test

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"periph.io/x/conn/v3/gpio"

	"github.com/packterm/pos/drivers/gpioio"
	"github.com/packterm/pos/drivers/gpioio/gpioiotest"
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
	if err := bz.Play(context.Background(), gpioio.BeepRefused); err != nil {
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
	err = bz.Play(ctx, gpioio.BeepAttention)
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

// watcher runs an input's Run loop on a fake clock and advances time until a condition
// holds: the watcher's WaitForEdge timeouts are timers on that clock.
type watcher struct {
	t      *testing.T
	clk    *clockwork.FakeClock
	cancel context.CancelFunc
	wg     sync.WaitGroup
	done   chan struct{}
}

func watch(t *testing.T, clk *clockwork.FakeClock, run func(context.Context) error) *watcher {
	ctx, cancel := context.WithCancel(context.Background())
	w := &watcher{t: t, clk: clk, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		if err := run(ctx); err != nil {
			t.Errorf("Run = %v", err)
		}
	}()
	t.Cleanup(w.stop)
	return w
}

// until advances the fake clock 1 ms at a time (at most 10 s) until cond holds.
func (w *watcher) until(what string, cond func() bool) {
	w.t.Helper()
	for range 10000 {
		if cond() {
			return
		}
		w.clk.Advance(time.Millisecond)
		runtime.Gosched()
	}
	w.t.Fatalf("%s: not after 10 s of fake time", what)
}

// settle lets the watcher run for d of fake time.
func (w *watcher) settle(d time.Duration) {
	for range int(d / time.Millisecond) {
		w.clk.Advance(time.Millisecond)
		runtime.Gosched()
	}
}

func (w *watcher) stop() {
	w.cancel()
	for range 10000 {
		select {
		case <-w.done:
			return
		default:
			w.clk.Advance(time.Millisecond)
			runtime.Gosched()
		}
	}
	w.t.Error("Run did not return after cancel")
}

func recv(w *watcher, ch <-chan gpioio.Event) gpioio.Event {
	w.t.Helper()
	var ev gpioio.Event
	got := false
	w.until("event", func() bool {
		select {
		case ev = <-ch:
			got = true
		default:
		}
		return got
	})
	return ev
}

func TestButtonDebounce(t *testing.T) {
	clk := clockwork.NewFakeClock()
	in := gpioiotest.NewInput("OK", 20, false, clk)
	b, err := gpioio.NewButton("ok", in, gpioio.InputOpts{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	if in.Pull() != gpio.PullUp {
		t.Errorf("pull = %v, want the pull-up of an active-low button", in.Pull())
	}
	w := watch(t, clk, b.Run)
	start := clk.Now()
	in.Bounce(3) // seven edges in a burst, ending pressed
	ev := recv(w, b.Events())
	if !ev.Active || ev.Input != "ok" || ev.At.Sub(start) < 20*time.Millisecond {
		t.Errorf("event %+v after %v", ev, ev.At.Sub(start))
	}
	if !b.Pressed() {
		t.Error("not pressed")
	}
	in.Release()
	if ev := recv(w, b.Events()); ev.Active {
		t.Errorf("event %v, want release", ev)
	}
	// A glitch shorter than the debounce time that comes back is no event.
	in.Press()
	in.Release()
	w.settle(100 * time.Millisecond)
	select {
	case ev := <-b.Events():
		t.Errorf("glitch gave %v", ev)
	default:
	}
}

func TestButtonQueueDropsWhenBusy(t *testing.T) {
	clk := clockwork.NewFakeClock()
	in := gpioiotest.NewInput("CANCEL", 21, false, clk)
	b, _ := gpioio.NewButton("cancel", in, gpioio.InputOpts{Clock: clk})
	w := watch(t, clk, b.Run)
	for range 5 { // ten events, nobody reading
		in.Press()
		w.until("pressed", b.Pressed)
		in.Release()
		w.until("released", func() bool { return !b.Pressed() })
	}
	w.settle(10 * time.Millisecond) // let the last event be queued (or dropped)
	if n := len(b.Events()); n != gpioio.ButtonQueue {
		t.Errorf("%d events queued, want %d", n, gpioio.ButtonQueue)
	}
	b.Drain()
	if n := len(b.Events()); n != 0 {
		t.Errorf("%d events after Drain", n)
	}
}

func TestTamperLatchesWhileBusy(t *testing.T) {
	clk := clockwork.NewFakeClock()
	in := gpioiotest.NewInput("TAMPER", 16, true, clk)
	tp, err := gpioio.NewTamper(in, gpioio.InputOpts{ActiveHigh: true, Pull: gpio.PullUp, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	if st := tp.State(); st.Tripped || st.Open {
		t.Fatalf("closed case at start: %+v", st)
	}
	w := watch(t, clk, tp.Run)
	// Opened and closed three times while nobody looks (the terminal is busy paying).
	for range 3 {
		in.Press()
		in.Release()
	}
	w.until("six edges", func() bool { return tp.State().Edges == 6 })
	st := tp.State()
	if !st.Tripped || st.Open || st.First.IsZero() {
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
	in2 := gpioiotest.NewInput("TAMPER", 16, true, clk)
	in2.Press()
	tp2, _ := gpioio.NewTamper(in2, gpioio.InputOpts{ActiveHigh: true, Pull: gpio.PullUp, Clock: clk})
	if st := tp2.State(); !st.Tripped || !st.Open {
		t.Errorf("open at start: %+v", st)
	}
	tp2.Reset()
	if !tp2.State().Tripped {
		t.Error("reset while open cleared the latch")
	}
}
