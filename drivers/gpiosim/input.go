package gpiosim

import (
	"sync"

	"github.com/jonboulle/clockwork"
	"periph.io/x/conn/v3/gpio"
)

// Input is a contact (a button, the case switch) on a Pin: the contact's side drives
// the line (Pin.Drive) and each change queues one edge for WaitForEdge, as periph's
// gpiotest.Pin does with its EdgesChan. Read is the contact's level now (as a real line
// reads), whatever the pull resistor In asked for: a closed contact stays at its level.
//
// Input's Release makes the contact inactive (it hides Pin.Release: the contact always
// drives its line).
type Input struct {
	*Pin
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
	p := NewPin(name, num, clk)
	p.EdgesChan = make(chan gpio.Level, EdgeQueue)
	in := &Input{Pin: p, ActiveHigh: activeHigh}
	in.put(false)
	return in
}

func (in *Input) level(active bool) gpio.Level { return gpio.Level(active == in.ActiveHigh) }

// put drives the contact's level on the line (and as the pin's own level, read before
// the host made it an input).
func (in *Input) put(active bool) {
	l := in.level(active)
	in.Pin.Drive(l)
	_ = in.Pin.Pin.Out(l) // gpiotest's level: no write counted, no OnChange
}

// Set moves the contact; a change queues one edge for WaitForEdge.
func (in *Input) Set(active bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.active == active {
		return
	}
	in.active = active
	in.put(active)
	in.EdgesChan <- in.level(active)
}

// In implements gpio.PinIn: the pin becomes an input (pending edges dropped, as gpiotest
// does); the contact keeps its level.
func (in *Input) In(pull gpio.Pull, edge gpio.Edge) error {
	err := in.Pin.In(pull, edge)
	in.mu.Lock()
	in.put(in.active)
	in.mu.Unlock()
	return err
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
