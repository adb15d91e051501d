package terminaltest

import (
	"context"
	"slices"
	"sync"

	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/gpioio"
)

// LED is a fake lamp: it records each Set.
type LED struct {
	Err error // returned by Set (the lamp keeps its state)

	mu  sync.Mutex
	on  bool
	set []bool
}

var _ terminal.LED = (*LED)(nil)

// Set implements terminal.LED.
func (l *LED) Set(on bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.Err != nil {
		return l.Err
	}
	l.on = on
	l.set = append(l.set, on)
	return nil
}

// On is the lamp's state.
func (l *LED) On() bool { l.mu.Lock(); defer l.mu.Unlock(); return l.on }

// History is every Set, oldest first.
func (l *LED) History() []bool { l.mu.Lock(); defer l.mu.Unlock(); return slices.Clone(l.set) }

// Buzzer is a fake buzzer: it records each pattern played, at once (no time passes).
type Buzzer struct {
	Err error // returned by Play

	mu     sync.Mutex
	played []gpioio.Pattern
	signal chan struct{}
}

var _ terminal.Buzzer = (*Buzzer)(nil)

// Play implements terminal.Buzzer.
func (b *Buzzer) Play(ctx context.Context, p gpioio.Pattern) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.played = append(b.played, p)
	if b.signal != nil {
		close(b.signal)
		b.signal = nil
	}
	return b.Err
}

// Played is every pattern played, oldest first. The machine plays them in the
// background: WaitPlayed waits for them.
func (b *Buzzer) Played() []gpioio.Pattern {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.played)
}

// WaitPlayed waits until at least n patterns were played, or ctx ends (false).
func (b *Buzzer) WaitPlayed(ctx context.Context, n int) bool {
	for {
		b.mu.Lock()
		if len(b.played) >= n {
			b.mu.Unlock()
			return true
		}
		if b.signal == nil {
			b.signal = make(chan struct{})
		}
		ch := b.signal
		b.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// Drawer is a fake cash drawer: it counts the openings.
type Drawer struct {
	Err error // returned by Open (the drawer stays shut)

	mu    sync.Mutex
	opens int
}

var _ terminal.Drawer = (*Drawer)(nil)

// Open implements terminal.Drawer.
func (d *Drawer) Open(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.Err != nil {
		return d.Err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	d.opens++
	return nil
}

// Opens counts the drawer's openings.
func (d *Drawer) Opens() int { d.mu.Lock(); defer d.mu.Unlock(); return d.opens }

// Tamper is a fake case switch latched as gpioio.Tamper latches: Open trips the latch,
// Reset clears it unless the case is still open.
type Tamper struct {
	mu     sync.Mutex
	st     gpioio.TamperState
	resets int
}

var _ terminal.TamperSwitch = (*Tamper)(nil)

// Open opens the case (the latch trips).
func (t *Tamper) Open() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.st.Open, t.st.Tripped = true, true
	t.st.Edges++
}

// Close closes the case (the latch stays tripped until Reset).
func (t *Tamper) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.st.Open {
		t.st.Edges++
	}
	t.st.Open = false
}

// State implements terminal.TamperSwitch.
func (t *Tamper) State() gpioio.TamperState { t.mu.Lock(); defer t.mu.Unlock(); return t.st }

// Reset implements terminal.TamperSwitch.
func (t *Tamper) Reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.resets++
	t.st = gpioio.TamperState{Open: t.st.Open, Tripped: t.st.Open}
}

// Resets counts the resets (a technician's unlock).
func (t *Tamper) Resets() int { t.mu.Lock(); defer t.mu.Unlock(); return t.resets }
