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
// Set the exported fields before the pin is used; OnChange runs on the writer's goroutine
// with no lock held.
type Pin struct {
	*gpiotest.Pin
	// OnChange, when not nil, is called after each Out with the new level.
	OnChange func(l gpio.Level)
	// Record keeps the history returned by History.
	Record bool

	mu      sync.Mutex
	writes  int
	history []Change
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
