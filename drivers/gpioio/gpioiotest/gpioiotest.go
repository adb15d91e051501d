package gpioiotest

import (
	"sync"

	"github.com/jonboulle/clockwork"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// Input is a fake contact on a gpiotest.Pin. Unlike a bare gpiotest.Pin, In does not let
// the pull resistor override the contact: a closed contact stays at its level.
type Input struct {
	*gpiotest.Pin
	// ActiveHigh: the pin reads high when the contact is active (as gpioio.InputOpts).
	ActiveHigh bool

	mu     sync.Mutex
	active bool
}

var _ gpio.PinIO = (*Input)(nil)

// EdgeQueue is how many edges may wait for the watcher.
const EdgeQueue = 64

// NewInput returns an inactive contact on a pin named name, number num, whose
// WaitForEdge timeouts run on clk (a fake clock in tests; nil means the real clock).
func NewInput(name string, num int, activeHigh bool, clk clockwork.Clock) *Input {
	if clk == nil {
		clk = clockwork.NewRealClock()
	}
	in := &Input{Pin: &gpiotest.Pin{N: name, Num: num, Clock: clk, EdgesChan: make(chan gpio.Level, EdgeQueue)}, ActiveHigh: activeHigh}
	in.L = in.level(false)
	return in
}

func (in *Input) level(active bool) gpio.Level { return gpio.Level(active == in.ActiveHigh) }

// In implements gpio.PinIn: it records the pull and drops pending edges as gpiotest does,
// then puts the contact's level back.
func (in *Input) In(pull gpio.Pull, edge gpio.Edge) error {
	err := in.Pin.In(pull, edge)
	in.mu.Lock()
	l := in.level(in.active)
	in.mu.Unlock()
	_ = in.Pin.Out(l)
	return err
}

// Set moves the contact; a change queues one edge for WaitForEdge.
func (in *Input) Set(active bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.active == active {
		return
	}
	in.active = active
	in.EdgesChan <- in.level(active)
}

// Press makes the contact active (a button pressed, a case switch opened).
func (in *Input) Press() { in.Set(true) }

// Release makes the contact inactive.
func (in *Input) Release() { in.Set(false) }

// Bounce makes the contact chatter n times around its current state and end active:
// the edges a mechanical contact makes within a few milliseconds.
func (in *Input) Bounce(n int) {
	for range n {
		in.Set(true)
		in.Set(false)
	}
	in.Set(true)
}

// Active reports the contact's state.
func (in *Input) Active() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.active
}
