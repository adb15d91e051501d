package gpiosim

import (
	"fmt"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// Change is one level change seen on a Pin, stamped with its clock's time.
type Change struct {
	At    time.Time
	Level gpio.Level
}

// Pin is a fake gpio.PinIO built on gpiotest.Pin that calls OnChange on every Out call
// (whether or not the level changes: the emulator decides what a repeated level means) and,
// when Record is set, keeps the history of level changes.
//
// The pin also models a line another device can drive: after In the pin is an input until
// the next Out, and Read returns the level set by Drive (the emulated device driving the
// line) or, once Release is called, the level In's pull left (high with gpio.PullUp, low
// with gpio.PullDown, the last level otherwise, as gpiotest.Pin does).
//
// Set the exported fields before the pin is used; OnChange and OnRead run on the caller's
// goroutine with no lock held.
type Pin struct {
	*gpiotest.Pin
	// OnChange, when not nil, is called after each Out with the new level.
	OnChange func(l gpio.Level)
	// OnRead, when not nil, is called after each Read made while the pin is an input, with
	// the level returned: the device driving the line can check when it is sampled.
	OnRead func(l gpio.Level)
	// Record keeps the history returned by History.
	Record bool

	mu      sync.Mutex
	writes  int
	history []Change
	input   bool       // In was called since the last Out
	driven  bool       // Drive was called since the last Release
	ext     gpio.Level // the level Drive set
}

var _ gpio.PinIO = (*Pin)(nil)

// NewPin returns a fake pin named name with number num whose time comes from clk.
func NewPin(name string, num int, clk clockwork.Clock) *Pin {
	return &Pin{Pin: &gpiotest.Pin{N: name, Num: num, Clock: clk}}
}

// Out implements gpio.PinOut: it sets the level, counts the write and notifies.
func (p *Pin) Out(l gpio.Level) error {
	if err := p.Pin.Out(l); err != nil {
		return fmt.Errorf("gpiosim: %s: %w", p.N, err)
	}
	p.mu.Lock()
	p.writes++
	p.input = false
	if p.Record && (len(p.history) == 0 || p.history[len(p.history)-1].Level != l) {
		p.history = append(p.history, Change{At: p.Clock.Now(), Level: l})
	}
	p.mu.Unlock()
	if p.OnChange != nil {
		p.OnChange(l)
	}
	return nil
}

// Writes returns how many times Out was called.
func (p *Pin) Writes() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.writes
}

// History returns a copy of the recorded level changes (Record must be set).
func (p *Pin) History() []Change {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Change(nil), p.history...)
}

// ResetHistory forgets the recorded changes and the write count.
func (p *Pin) ResetHistory() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.history = nil
	p.writes = 0
}

// In implements gpio.PinIn: the pin becomes an input until the next Out.
func (p *Pin) In(pull gpio.Pull, edge gpio.Edge) error {
	if err := p.Pin.In(pull, edge); err != nil {
		return fmt.Errorf("gpiosim: %s: %w", p.N, err)
	}
	p.mu.Lock()
	p.input = true
	p.mu.Unlock()
	return nil
}

// Read implements gpio.PinIn: on an input, the level Drive set, or the pull's level when
// nothing drives the line; on an output, the level last written. OnRead sees the reads
// made as an input.
func (p *Pin) Read() gpio.Level {
	p.mu.Lock()
	input, driven, ext := p.input, p.driven, p.ext
	p.mu.Unlock()
	l := p.Pin.Read()
	if input && driven {
		l = ext
	}
	if input && p.OnRead != nil {
		p.OnRead(l)
	}
	return l
}

// IsInput reports whether the pin is an input: In was called since the last Out.
func (p *Pin) IsInput() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.input
}

// Drive puts level l on the line from the device's side: Read returns it while the pin is
// an input, until Release. It does not call OnChange and does not count as a write. An
// emulator that drives a line the host has as an output should report the contention.
func (p *Pin) Drive(l gpio.Level) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.driven, p.ext = true, l
}

// Release stops the device driving the line: Read on an input returns the pull's level.
func (p *Pin) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.driven = false
}
