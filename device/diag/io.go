package diag

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/locale"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/drivers/gpioio"
)

// IOOpts configures RunIO.
type IOOpts struct {
	// Hold is how long each LED stays lit (default 1 s).
	Hold time.Duration
	// Wait is how long a button press or the case opening is waited for (default 20 s).
	Wait time.Duration
	// SkipDrawer leaves the cash drawer shut.
	SkipDrawer bool
	// Clock times the steps; nil means the real clock.
	Clock clockwork.Clock
	// Prompt is called when a step needs the technician (press a button, open the case),
	// before waiting; an emulated run presses the fake contact from here.
	Prompt func(Step)
	// Press, when set, is called after Prompt with the contact the step waits for: an
	// emulated run presses the fake contact (board.Emulator) from here.
	Press func(board.Contact)
	// Report receives each step's result as it completes.
	Report func(Result)
	// Locale is the language of the prompts on the board's display (nil: French).
	Locale *locale.Locale
}

// Result is the outcome of one step. Outputs cannot be checked by the board itself: their
// steps succeed when driven, and Check says what the technician should have seen.
type Result struct {
	Step
	OK     bool
	Detail string
}

// RunIO walks through the LEDs, the buzzer patterns, the drawer, the OK and CANCEL
// buttons and the tamper switch, prompting on the board's display too. It runs the
// board's input watchers for its duration and returns every step's result; the error is
// for a driver failure or a cancelled ctx, not for a failed step.
func RunIO(ctx context.Context, b *board.Board, o IOOpts) ([]Result, error) {
	if o.Hold <= 0 {
		o.Hold = time.Second
	}
	if o.Wait <= 0 {
		o.Wait = 20 * time.Second
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Prompt == nil {
		o.Prompt = func(Step) {}
	}
	if o.Press == nil {
		o.Press = func(board.Contact) {}
	}
	w := locale.Or(o.Locale)
	watch, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { _ = b.Run(watch) })
	defer wg.Wait()
	defer stop()

	var results []Result
	report := func(r Result) {
		results = append(results, r)
		if o.Report != nil {
			o.Report(r)
		}
	}
	show := func(s retail.Screen) {
		s = s.In(w)
		if b.Display != nil {
			_ = b.Display.Show(retail.MustLayout(s, b.Display.Cols(), b.Display.Rows())...)
		}
	}
	for _, led := range []struct {
		l    *gpioio.LED
		name string
		text locale.Key
	}{{b.Green, "green LED", "diag.led_green"}, {b.Red, "red LED", "diag.led_red"}} {
		show(IOScreen(w, w.Text(led.text)))
		if err := led.l.Set(true); err != nil {
			return results, err
		}
		o.Clock.Sleep(o.Hold)
		if err := led.l.Set(false); err != nil {
			return results, err
		}
		report(Result{Step{led.name, fmt.Sprintf("lit for %v, then off", o.Hold)}, true, ""})
	}
	for _, p := range []struct {
		name string
		p    gpioio.Pattern
	}{{"key", gpioio.BeepKey()}, {"ok", gpioio.BeepOK()}, {"refused", gpioio.BeepRefused()}, {"attention", gpioio.BeepAttention()}} {
		show(IOScreen(w, w.Text("diag.buzzer", p.name)))
		if err := b.Buzzer.Play(ctx, p.p); err != nil {
			return results, err
		}
		report(Result{Step{"buzzer " + p.name, fmt.Sprintf("%d beep(s)", len(p.p))}, true, ""})
		o.Clock.Sleep(o.Hold / 2)
	}
	if o.SkipDrawer {
		report(Result{Step{"cash drawer", "skipped"}, true, "skipped"})
	} else {
		show(IOScreen(w, w.Text("diag.drawer")))
		if err := b.Drawer.Open(ctx); err != nil {
			return results, err
		}
		report(Result{Step{"cash drawer", "the drawer springs open"}, true, ""})
	}
	for _, bt := range []struct {
		want, other *gpioio.Button
		name        string
		text        locale.Key
		contact     board.Contact
	}{{b.OK, b.Cancel, "OK button", "diag.button_ok", board.ContactOK}, {b.Cancel, b.OK, "CANCEL button", "diag.button_cancel", board.ContactCancel}} {
		step := Step{bt.name, "press and release " + strings.TrimSuffix(bt.name, " button")}
		show(IOScreen(w, w.Text("diag.press"), w.Text(bt.text)))
		bt.want.Drain()
		bt.other.Drain()
		o.Prompt(step)
		o.Press(bt.contact)
		r := Result{Step: step}
		r.OK, r.Detail = waitButton(ctx, o, bt.want, bt.other)
		report(r)
		if err := ctx.Err(); err != nil {
			return results, err
		}
	}
	step := Step{"tamper switch", "open the case, then close it"}
	show(TamperScreen(w))
	before := b.Tamper.State().Edges
	select {
	case <-b.Tamper.Changed(): // forget an older notification
	default:
	}
	o.Prompt(step)
	o.Press(board.ContactTamper)
	r := Result{Step: step}
	deadline := o.Clock.After(o.Wait)
	for !r.OK {
		select {
		case <-b.Tamper.Changed():
			st := b.Tamper.State()
			if st.Edges-before >= 2 && !st.Open {
				r.OK, r.Detail = true, fmt.Sprintf("%d edges, case closed again", st.Edges-before)
			}
		case <-deadline:
			st := b.Tamper.State()
			r.Detail = fmt.Sprintf("%d edges within %v, case open: %v", st.Edges-before, o.Wait, st.Open)
			report(r)
			show(IOScreen(w, w.Text("diag.done")))
			return results, nil
		case <-ctx.Done():
			return results, ctx.Err()
		}
	}
	report(r)
	show(IOScreen(w, w.Text("diag.done")))
	return results, nil
}

// IOScreen is a screen of the IO test in the language of l (nil: French): its title, then
// what to do; on a 2-row panel the title gives way.
func IOScreen(l *locale.Locale, what ...string) retail.Screen {
	return retail.Text(append([]string{locale.Or(l).Text("diag.io")}, strings.Join(what, " "))...).
		Or(strings.Join(what, " ")).Or(what...)
}

// TamperScreen asks to open the case, then close it.
func TamperScreen(l *locale.Locale) retail.Screen {
	l = locale.Or(l)
	forms := l.Forms("diag.tamper")
	s := IOScreen(l, forms[0]...)
	for _, f := range forms[1:] {
		s = s.Or(f...)
	}
	return s
}

// waitButton waits for a press then a release of want; a press of other first fails
// (swapped wiring).
func waitButton(ctx context.Context, o IOOpts, want, other *gpioio.Button) (bool, string) {
	deadline := o.Clock.After(o.Wait)
	pressed := false
	for {
		select {
		case ev := <-want.Events():
			if ev.Active {
				pressed = true
			} else if pressed {
				return true, "pressed and released"
			}
		case ev := <-other.Events():
			if ev.Active {
				return false, fmt.Sprintf("%s pressed instead: swapped wiring?", ev.Input)
			}
		case <-deadline:
			if pressed {
				return false, fmt.Sprintf("pressed but not released within %v", o.Wait)
			}
			return false, fmt.Sprintf("no press within %v", o.Wait)
		case <-ctx.Done():
			return false, ctx.Err().Error()
		}
	}
}
