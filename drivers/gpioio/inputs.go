package gpioio

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
	"periph.io/x/conn/v3/gpio"
)

// InputOpts configures a button or switch input.
type InputOpts struct {
	// ActiveHigh: the input is active (pressed, open) when the pin reads high. The default,
	// active low, fits a switch to ground with a pull-up.
	ActiveHigh bool
	// Pull is the internal resistor. gpio.PullNoChange (the zero value) means the usual
	// one for the polarity (pull-up when active low, pull-down when active high); with
	// external resistors use gpio.Float.
	Pull gpio.Pull
	// Debounce: an input is read once it has seen no edge for this long (default 20 ms).
	Debounce time.Duration
	// Poll bounds each WaitForEdge, hence how long Run takes to notice a cancelled context
	// (default 100 ms).
	Poll time.Duration
	// Clock stamps events; nil means the real clock. The pin's own clock (gpiotest.Pin's
	// Clock) times its WaitForEdge timeouts.
	Clock clockwork.Clock
	// Logger gets the input's events worth a log (a tamper edge, a button event nobody
	// read); nil discards them.
	Logger *slog.Logger
}

func (o InputOpts) withDefaults() InputOpts {
	if o.Pull == gpio.PullNoChange {
		o.Pull = gpio.PullUp
		if o.ActiveHigh {
			o.Pull = gpio.PullDown
		}
	}
	if o.Debounce <= 0 {
		o.Debounce = 20 * time.Millisecond
	}
	if o.Poll <= 0 {
		o.Poll = 100 * time.Millisecond
	}
	o.Clock = orReal(o.Clock)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// maxSettle bounds the wait for a chattering contact to settle, in debounce periods.
const maxSettle = 10

// input is a pin watched for edges.
type input struct {
	name string
	pin  gpio.PinIn
	o    InputOpts
}

func newInput(name string, p gpio.PinIn, o InputOpts) (input, error) {
	if p == nil {
		return input{}, fmt.Errorf("gpioio: %s: no pin", name)
	}
	o = o.withDefaults()
	if err := p.In(o.Pull, gpio.BothEdges); err != nil {
		return input{}, fmt.Errorf("gpioio: %s: set as input with edge detection: %w", name, err)
	}
	return input{name: name, pin: p, o: o}, nil
}

func (in input) active() bool { return (in.pin.Read() == gpio.High) == in.o.ActiveHigh }

// settle waits until the pin has been quiet for the debounce time (at most maxSettle
// debounce periods) and returns whether it is active then.
func (in input) settle() bool {
	for range maxSettle {
		if !in.pin.WaitForEdge(in.o.Debounce) {
			break
		}
	}
	return in.active()
}

// Event is a debounced change of an input.
type Event struct {
	Input  string    // "ok", "cancel", …
	Active bool      // pressed (true) or released (false)
	At     time.Time // when the change was confirmed
}

func (e Event) String() string {
	if e.Active {
		return e.Input + " pressed"
	}
	return e.Input + " released"
}

// Button is a push button with debounced press and release events. Events are queued (4
// deep); when nobody reads them the newest are dropped: a press made while the terminal is
// busy must not confirm whatever comes next. Call Drain before asking for a decision.
type Button struct {
	in     input
	events chan Event
	mu     sync.Mutex
	down   bool
}

// ButtonQueue is how many button events wait for a reader.
const ButtonQueue = 4

// NewButton sets p as an input with edge detection and returns the button called name.
func NewButton(name string, p gpio.PinIn, o InputOpts) (*Button, error) {
	in, err := newInput(name, p, o)
	if err != nil {
		return nil, err
	}
	return &Button{in: in, events: make(chan Event, ButtonQueue), down: in.active()}, nil
}

// Events delivers the button's presses and releases while Run runs.
func (b *Button) Events() <-chan Event { return b.events }

// Pressed reports the debounced state.
func (b *Button) Pressed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.down
}

// Drain discards the queued events.
func (b *Button) Drain() {
	for {
		select {
		case <-b.events:
		default:
			return
		}
	}
}

// String returns the button's name.
func (b *Button) String() string { return b.in.name }

// Run watches the button until ctx is cancelled; it returns nil then.
func (b *Button) Run(ctx context.Context) error {
	for ctx.Err() == nil {
		if !b.in.pin.WaitForEdge(b.in.o.Poll) {
			continue
		}
		now := b.in.settle()
		b.mu.Lock()
		changed := now != b.down
		b.down = now
		b.mu.Unlock()
		if !changed {
			continue // a bounce that came back to where it was
		}
		ev := Event{Input: b.in.name, Active: now, At: b.in.o.Clock.Now()}
		select {
		case b.events <- ev:
		default:
			b.in.o.Logger.Debug("gpioio: button event dropped, nobody reading", "event", ev.String())
		}
	}
	return nil
}

// TamperState is the latched record of the tamper switch.
type TamperState struct {
	Tripped     bool      // latched until Reset: the case was opened at some point
	Open        bool      // the switch is open now
	Edges       int       // edges seen since the last Reset
	First, Last time.Time // first and last edge (or trip at start) since the last Reset
}

// Tamper watches the case switch. Every edge is counted and latched at once, without
// debounce and without waiting for a reader, so a case opened and closed again while the
// terminal is busy is still known; Changed signals that the state changed.
type Tamper struct {
	in      input
	changed chan struct{}
	mu      sync.Mutex
	st      TamperState
}

// NewTamper sets p as an input with edge detection. The usual wiring is a switch held
// closed by the case, to ground, with a pull-up: open (tampered) reads high, so use
// InputOpts{ActiveHigh: true, Pull: gpio.PullUp}. A switch already open at start trips
// the latch.
func NewTamper(p gpio.PinIn, o InputOpts) (*Tamper, error) {
	in, err := newInput("tamper", p, o)
	if err != nil {
		return nil, err
	}
	t := &Tamper{in: in, changed: make(chan struct{}, 1)}
	if in.active() {
		now := in.o.Clock.Now()
		t.st = TamperState{Tripped: true, Open: true, First: now, Last: now}
		t.changed <- struct{}{}
	}
	return t, nil
}

// Changed receives a value after the state changed (notifications coalesce: read State).
func (t *Tamper) Changed() <-chan struct{} { return t.changed }

// State returns the latched state.
func (t *Tamper) State() TamperState {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.st
}

// Reset clears the latch (a technician's unlock); it stays tripped if the switch is open.
func (t *Tamper) Reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	open := t.in.active()
	t.st = TamperState{Tripped: open, Open: open}
	if open {
		t.st.First = t.in.o.Clock.Now()
		t.st.Last = t.st.First
	}
}

// Run watches the switch until ctx is cancelled; it returns nil then.
func (t *Tamper) Run(ctx context.Context) error {
	for ctx.Err() == nil {
		if !t.in.pin.WaitForEdge(t.in.o.Poll) {
			continue
		}
		now := t.in.o.Clock.Now()
		open := t.in.active()
		t.mu.Lock()
		if t.st.Edges == 0 && !t.st.Tripped {
			t.st.First = now
		}
		t.st.Edges++
		t.st.Last = now
		t.st.Open = open
		t.st.Tripped = true
		t.mu.Unlock()
		t.in.o.Logger.Warn("gpioio: tamper switch edge", "open", open)
		select {
		case t.changed <- struct{}{}:
		default:
		}
	}
	return nil
}
