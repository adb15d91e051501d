package terminal

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/packterm/pos/device/floors"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/drivers/gpioio"
	"github.com/packterm/pos/drivers/printer"
)

// State is one state of the machine: Run does what the state does and returns the next
// state, or nil when ctx ends.
type State interface {
	Name() string
	Run(ctx context.Context, t *Terminal) State
}

// Terminal is the retail state machine on its parts.
type Terminal struct {
	cfg   Config
	parts Parts
	data  Data
	log   *slog.Logger

	events chan Event

	throttle *throttleState
	last     *printer.Receipt // last receipt printed (reprint)
	tag      string           // this start's receipt tag (receiptID)
	// statusRefused: the pack status list is older than the newest installed, or gone;
	// ledgerRefused: the blocks whose ledger is older than the newest installed
	// (datafloor.go). Set at start.
	statusRefused bool
	ledgerRefused map[uint16]bool
	keysRefused   bool // the operator key statement is older than the newest installed, or gone
	limitsRefused bool // the operator limits statement is older than the newest installed, or gone
	// firmwareKeysRefused: the firmware key statement is older than the newest installed, or gone
	firmwareKeysRefused bool
	// floors are the journal's install floors read at start; fleetSeen the fleet's floors
	// last taken in (datafloor.go).
	floors    floors.Floors
	fleetSeen floors.Floors

	mu       sync.Mutex
	state    string
	quiet    bool // the state is idle or shows a result: nothing waits for an answer
	waiting  bool // blocked in wait with nothing queued
	received uint64
	timeouts uint64    // waits for input that ended on their timeout
	due      time.Time // when the current wait times out (zero: no timeout, or not waiting)
	screen   []string
	// displayHealth is the outcome of the panel's last read-back (DisplayHealth).
	displayHealth string
	scanner       bool          // scanner present
	settled       chan struct{} // closed when the machine waits for input
	took          chan struct{} // closed when it takes one
	ready         chan struct{}
	readyOne      sync.Once
}

// New builds the terminal; Run starts it.
func New(cfg Config, parts Parts, data Data) (*Terminal, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	if err := checkParts(parts); err != nil {
		return nil, err
	}
	if data.Journal == nil {
		return nil, errors.New("terminal: no journal")
	}
	t := &Terminal{
		cfg: cfg, parts: parts, data: data, log: cfg.Logger,
		events:  make(chan Event, 16),
		settled: make(chan struct{}), took: make(chan struct{}), ready: make(chan struct{}),
	}
	t.throttle = newThrottle(cfg.Throttle)
	var err error
	if t.tag, err = startTag(cfg.Rand); err != nil {
		return nil, err
	}
	return t, nil
}

// Run runs the machine until ctx ends; it returns nil then.
func (t *Terminal) Run(ctx context.Context) error {
	st, err := t.start(ctx)
	if err != nil {
		return err
	}
	for st != nil && ctx.Err() == nil {
		t.enter(st)
		st = st.Run(ctx, t)
	}
	return nil
}

func (t *Terminal) enter(st State) {
	_, quiet := st.(quietState)
	t.mu.Lock()
	t.state, t.quiet = st.Name(), quiet
	t.mu.Unlock()
	t.log.Debug("terminal: state", "state", st.Name())
}

// quietState marks states in which nothing waits for an answer (idle, result screens).
type quietState interface{ quiet() }

// Ready is closed once the terminal shows its first screen at rest (idle, or the notice of
// an emulator without a status list) and takes inputs.
func (t *Terminal) Ready() <-chan struct{} { return t.ready }

// StateName is the current state's name.
func (t *Terminal) StateName() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state
}

// Screen is the text last shown.
func (t *Terminal) Screen() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.screen...)
}

// ScannerPresent reports whether the scanner has said it is on line (and not gone since).
func (t *Terminal) ScannerPresent() bool { return t.scannerPresent() }

func (t *Terminal) setWaiting(w bool, due time.Time) {
	t.mu.Lock()
	t.waiting, t.due = w, due
	if w && len(t.events) == 0 {
		close(t.settled)
		t.settled = make(chan struct{})
	}
	t.mu.Unlock()
}

// consumed counts an input taken and marks the machine busy in the same step, so Settle
// never sees the new count while the machine still looks idle.
func (t *Terminal) consumed() {
	t.mu.Lock()
	t.received++
	t.waiting = false
	close(t.took)
	t.took = make(chan struct{})
	t.mu.Unlock()
}

// Taken waits until the machine has taken more than n inputs in all (n from Received),
// without waiting for it to finish with them.
func (t *Terminal) Taken(ctx context.Context, n uint64) error {
	for {
		t.mu.Lock()
		ch, got := t.took, t.received
		t.mu.Unlock()
		if got > n {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("terminal: input not taken: in state %s: %w", t.StateName(), ctx.Err())
		}
	}
}

// AtRest reports whether the machine waits for input with none queued in a state where
// nothing waits for an answer (idle, or a result screen): stopping it then interrupts
// nothing the retailer started (the daemon's restart waits for it).
func (t *Terminal) AtRest() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.waiting && t.quiet && len(t.events) == 0
}

// Received is the number of inputs the machine has taken so far.
func (t *Terminal) Received() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.received
}

// Settle blocks until the machine has taken more than n inputs and waits for the next one
// with none queued; quiet reports whether it is then idle or showing a result.
func (t *Terminal) Settle(ctx context.Context, n uint64) (quiet bool, err error) {
	for {
		t.mu.Lock()
		ch := t.settled
		if t.received > n && t.waiting && len(t.events) == 0 {
			q := t.quiet
			t.mu.Unlock()
			return q, nil
		}
		t.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return false, fmt.Errorf("terminal: settle: in state %s: %w", t.StateName(), ctx.Err())
		}
	}
}

// show lays s out on the panel and shows it.
func (t *Terminal) show(s retail.Screen) {
	s = s.In(t.words())
	lines, err := retail.Layout(s, t.parts.Screen.Cols(), t.parts.Screen.Rows())
	if err != nil {
		t.log.Error("terminal: screen does not fit", "err", err)
		lines = retail.MustLayout(s, t.parts.Screen.Cols(), t.parts.Screen.Rows())
	}
	if err := t.parts.Screen.Show(lines...); err != nil {
		t.log.Error("terminal: display", "err", err)
	}
	t.mu.Lock()
	t.screen = lines
	t.mu.Unlock()
}

// signal lights the outcome's LED and plays its beep (in the background: a beep never
// delays the machine).
func (t *Terminal) signal(ctx context.Context, s retail.Signal) {
	green, red := s == retail.SignalOK, s == retail.SignalRefused || s == retail.SignalAttention
	if err := errors.Join(t.parts.Green.Set(green), t.parts.Red.Set(red)); err != nil {
		t.log.Error("terminal: LED", "err", err)
	}
	var p gpioio.Pattern
	switch s {
	case retail.SignalOK:
		p = gpioio.BeepOK()
	case retail.SignalRefused:
		p = gpioio.BeepRefused()
	case retail.SignalAttention:
		p = gpioio.BeepAttention()
	default:
		return
	}
	go func() {
		if err := t.parts.Buzzer.Play(ctx, p); err != nil && ctx.Err() == nil {
			t.log.Error("terminal: buzzer", "err", err)
		}
	}()
}
