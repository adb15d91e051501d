package gpioio

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
	"periph.io/x/conn/v3/gpio"
)

// output is a pin with a polarity.
type output struct {
	name      string
	pin       gpio.PinOut
	activeLow bool
}

func (o output) set(on bool) error {
	if err := o.pin.Out(gpio.Level(on != o.activeLow)); err != nil {
		return fmt.Errorf("gpioio: %s: %w", o.name, err)
	}
	return nil
}

func newOutput(name string, p gpio.PinOut, activeLow bool) (output, error) {
	if p == nil {
		return output{}, fmt.Errorf("gpioio: %s: no pin", name)
	}
	o := output{name: name, pin: p, activeLow: activeLow}
	return o, o.set(false)
}

// LED is an indicator light. Its methods are safe for concurrent use.
type LED struct {
	o  output
	mu sync.Mutex
	on bool
}

// NewLED returns the LED called name on p (lit when p is high, or low if activeLow),
// switched off.
func NewLED(name string, p gpio.PinOut, activeLow bool) (*LED, error) {
	o, err := newOutput(name, p, activeLow)
	if err != nil {
		return nil, err
	}
	return &LED{o: o}, nil
}

// Set switches the LED.
func (l *LED) Set(on bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.o.set(on); err != nil {
		return err
	}
	l.on = on
	return nil
}

// IsOn reports the last state set.
func (l *LED) IsOn() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.on
}

// String returns the LED's name.
func (l *LED) String() string { return l.o.name }

// Tone is one beep of a Pattern: sound for On, then silence for Off.
type Tone struct {
	On, Off time.Duration
}

// Pattern is a sequence of beeps.
type Pattern []Tone

const (
	ms   = time.Millisecond
	beep = 80 * ms
)

// The terminal's beeps: each call returns a new Pattern (a caller may change its copy).

// BeepKey acknowledges a button press.
func BeepKey() Pattern { return Pattern{{On: 30 * ms}} }

// BeepOK: done (sold, paid).
func BeepOK() Pattern { return Pattern{{On: 120 * ms}} }

// BeepRefused: invalid code, losing ticket, refused sale.
func BeepRefused() Pattern { return Pattern{{On: 200 * ms, Off: 100 * ms}, {On: 200 * ms}} }

// BeepAttention: a fault or the tamper switch.
func BeepAttention() Pattern {
	return Pattern{{On: beep, Off: beep}, {On: beep, Off: beep}, {On: beep}}
}

// maxTone caps a single beep: a stuck buzzer is a nuisance in a shop.
const maxTone = 2 * time.Second

// Buzzer sounds beep patterns on an active buzzer (it sounds while its pin is active).
// Patterns are played one at a time.
type Buzzer struct {
	o   output
	clk clockwork.Clock
	mu  sync.Mutex
}

// NewBuzzer returns the buzzer on p, silent. clk nil means the real clock.
func NewBuzzer(p gpio.PinOut, activeLow bool, clk clockwork.Clock) (*Buzzer, error) {
	o, err := newOutput("buzzer", p, activeLow)
	if err != nil {
		return nil, err
	}
	return &Buzzer{o: o, clk: orReal(clk)}, nil
}

// Play sounds p and returns when it is done or ctx is cancelled; the buzzer is silent
// when Play returns, whatever happened. Each beep is capped at 2 s.
func (b *Buzzer) Play(ctx context.Context, p Pattern) (err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	defer func() {
		if e := b.o.set(false); e != nil {
			err = errors.Join(err, e)
		}
	}()
	for _, t := range p {
		if err := b.o.set(true); err != nil {
			return err
		}
		if err := sleep(ctx, b.clk, min(t.On, maxTone)); err != nil {
			return fmt.Errorf("gpioio: buzzer: %w", err)
		}
		if err := b.o.set(false); err != nil {
			return err
		}
		if err := sleep(ctx, b.clk, t.Off); err != nil {
			return fmt.Errorf("gpioio: buzzer: %w", err)
		}
	}
	return nil
}

// Drawer opens the cash drawer by energising its solenoid for one pulse (through a
// driver transistor or relay: a GPIO cannot drive the solenoid itself).
type Drawer struct {
	o     output
	clk   clockwork.Clock
	pulse time.Duration
	mu    sync.Mutex
}

// DefaultDrawerPulse is a common drawer solenoid's pulse (Epson-style kick: 100 ms).
const DefaultDrawerPulse = 100 * time.Millisecond

// NewDrawer returns the drawer on p; pulse 0 means DefaultDrawerPulse and is capped at
// 500 ms so a solenoid is never left energised. clk nil means the real clock.
func NewDrawer(p gpio.PinOut, activeLow bool, pulse time.Duration, clk clockwork.Clock) (*Drawer, error) {
	o, err := newOutput("drawer", p, activeLow)
	if err != nil {
		return nil, err
	}
	if pulse <= 0 {
		pulse = DefaultDrawerPulse
	}
	return &Drawer{o: o, clk: orReal(clk), pulse: min(pulse, 500*time.Millisecond)}, nil
}

// Open sends one pulse. The solenoid is released when Open returns, even when ctx is
// cancelled halfway.
func (d *Drawer) Open(ctx context.Context) (err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("gpioio: drawer: %w", err)
	}
	defer func() {
		if e := d.o.set(false); e != nil {
			err = errors.Join(err, e)
		}
	}()
	if err := d.o.set(true); err != nil {
		return err
	}
	if err := sleep(ctx, d.clk, d.pulse); err != nil {
		return fmt.Errorf("gpioio: drawer: %w", err)
	}
	return nil
}
