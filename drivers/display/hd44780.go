package display

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
	"periph.io/x/conn/v3/display"
	"periph.io/x/conn/v3/gpio"

	"github.com/packterm/pos/drivers/display/hd44780"
)

// Pins are the panel's inputs in 4-bit mode. D0–D3 are left unconnected. Backlight is
// optional (nil: no backlight control).
//
// RW is optional too: nil means R/W tied to ground (write only, the driver behaves as if
// the pin did not exist). With RW set, D4–D7 must also be gpio.PinIO, since the driver
// reads them back (Check); the panel then drives them while R/W is high, so its data lines
// must be at the GPIOs' logic level (a 3.3 V panel, or a level shifter for a 5 V one).
type Pins struct {
	RS, E, D4, D5, D6, D7 gpio.PinOut
	Backlight             gpio.PinOut
	RW                    gpio.PinOut
}

// Opts configures a Dev.
type Opts struct {
	Geometry
	// Timing is the set of delays kept; the zero value means DefaultTiming().
	Timing Timing
	// Clock is where the driver waits; nil means the real clock.
	Clock clockwork.Clock
	// Font is the set of custom glyphs; nil means DefaultFont(). Characters of the ROM are
	// never drawn as glyphs.
	Font map[rune]Glyph
}

// HD44780 instructions (datasheet table 6), from the controller model the emulator shares
// (hd44780).
const (
	cmdClear       = hd44780.ClearDisplay
	cmdHome        = hd44780.ReturnHome
	cmdEntryMode   = hd44780.EntryModeSet // | 0x02 increment | 0x01 shift display on write
	cmdDisplay     = hd44780.DisplayCtl   // | 0x04 display on | 0x02 cursor | 0x01 blink
	cmdShift       = hd44780.Shift        // | 0x08 display (not cursor) | 0x04 right
	cmdFunctionSet = hd44780.FunctionSet  // | 0x10 8-bit | 0x08 two lines | 0x04 5×10 font
	cmdSetCGRAM    = hd44780.SetCGRAM
	cmdSetDDRAM    = hd44780.SetDDRAM
)

const (
	pinRS = iota
	pinE
	pinD4
	pinD5
	pinD6
	pinD7
	pinRW // nil in pins when R/W is tied to ground
	numPins
)

var pinNames = [numPins]string{"RS", "E", "D4", "D5", "D6", "D7", "RW"}

// slot is one of the 8 CGRAM characters.
type slot struct {
	r      rune
	loaded bool
	last   uint64 // use stamp for least-recently-used eviction
}

// Dev is an HD44780 panel driven in 4-bit mode. Its methods are safe for concurrent use.
type Dev struct {
	geo    Geometry
	t      Timing
	clk    clockwork.Clock
	font   map[rune]Glyph
	pins   [numPins]gpio.PinOut
	dataIn [4]gpio.PinIO // D4–D7 as inputs, set only with R/W wired
	bl     gpio.PinOut
	mu     sync.Mutex
	level  [numPins]gpio.Level
	known  [numPins]bool

	// Mirror of the controller's state (what it should hold; Check compares).
	mem     [80]byte // DDRAM, indexed line*40+column
	ac      byte     // DDRAM address counter
	offset  int      // display shift: visible column 0 shows DDRAM column offset
	inCGRAM bool     // the controller's address counter points into CGRAM
	autoS   bool     // entry mode S: shift the display on each write
	ctl     byte     // display control bits (D, C, B)
	slots   [8]slot
	stamp   uint64
}

var (
	_ display.TextDisplay      = (*Dev)(nil)
	_ display.DisplayBacklight = (*Dev)(nil)
	_ Screen                   = (*Dev)(nil)
)

// New checks the pins and runs the datasheet's power-on initialisation ("Initializing by
// Instruction", figure 24, 4-bit interface): wait PowerOn, 0x3, wait > 4.1 ms, 0x3, wait
// > 100 µs, 0x3, 0x2 (4-bit from now on), then function set (2 lines, 5×8 dots), display
// off, clear display, entry mode (increment, no shift) and display on.
func New(p Pins, o Opts) (*Dev, error) {
	if o.Geometry != LCD16x2 && o.Geometry != LCD20x4 {
		if o.Cols < 1 || o.Rows < 1 || o.Rows > 4 || (o.Rows <= 2 && o.Cols > 40) || (o.Rows > 2 && o.Cols > 20) {
			return nil, fmt.Errorf("display: unsupported geometry %dx%d", o.Cols, o.Rows)
		}
	}
	d := &Dev{geo: o.Geometry, t: o.Timing, clk: o.Clock, font: o.Font, bl: p.Backlight}
	if d.t == (Timing{}) {
		d.t = DefaultTiming()
	}
	if d.clk == nil {
		d.clk = clockwork.NewRealClock()
	}
	if d.font == nil {
		d.font = defaultFont
	}
	for i, pin := range []gpio.PinOut{p.RS, p.E, p.D4, p.D5, p.D6, p.D7} {
		if pin == nil {
			return nil, fmt.Errorf("display: pin %s not set", pinNames[i])
		}
		d.pins[i] = pin
	}
	if p.RW != nil {
		for i, pin := range []gpio.PinOut{p.D4, p.D5, p.D6, p.D7} {
			io, ok := pin.(gpio.PinIO)
			if !ok {
				return nil, fmt.Errorf("display: pin %s is not a gpio.PinIO: with R/W wired, D4–D7 are read", pinNames[pinD4+i])
			}
			d.dataIn[i] = io
		}
		d.pins[pinRW] = p.RW
	}
	if d.t.DataDelay == 0 {
		d.t.DataDelay = DefaultTiming().DataDelay
	}
	if err := d.Init(); err != nil {
		return nil, err
	}
	return d, nil
}

// Init (re)runs the power-on initialisation. It is safe to call on a running panel (e.g.
// after a power glitch): the handshake resynchronises the 4-bit interface from any state.
func (d *Dev) Init() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.out(pinE, gpio.Low); err != nil {
		return fmt.Errorf("display: init: %w", err)
	}
	if err := d.out(pinRS, gpio.Low); err != nil {
		return fmt.Errorf("display: init: %w", err)
	}
	d.clk.Sleep(d.t.PowerOn)
	// In 8-bit mode each nibble is a whole instruction (D0–D3 unconnected): three
	// "function set 8-bit" to resynchronise from any state, then "function set 4-bit".
	for _, step := range []struct {
		n    byte
		wait time.Duration
	}{{0x3, d.t.InitStep1}, {0x3, d.t.InitStep2}, {0x3, d.t.Exec}, {0x2, d.t.Exec}} {
		if err := d.nibble(gpio.Low, step.n); err != nil {
			return fmt.Errorf("display: init: %w", err)
		}
		d.clk.Sleep(step.wait)
	}
	fs := byte(cmdFunctionSet)
	if d.geo.Rows > 1 {
		fs |= 0x08
	}
	for _, c := range []byte{fs, cmdDisplay, cmdClear, cmdEntryMode | 0x02, cmdDisplay | 0x04} {
		if err := d.command(c); err != nil {
			return fmt.Errorf("display: init: %w", err)
		}
	}
	d.resetMirror()
	d.ctl = 0x04
	return nil
}

func (d *Dev) resetMirror() {
	for i := range d.mem {
		d.mem[i] = ' '
	}
	d.ac, d.offset, d.autoS = 0, 0, false
	d.slots = [8]slot{}
}

// out sets one pin, skipping the write when the pin is known to be at that level already.
func (d *Dev) out(i int, l gpio.Level) error {
	if d.known[i] && d.level[i] == l {
		return nil
	}
	if err := d.pins[i].Out(l); err != nil {
		d.known[i] = false
		return fmt.Errorf("write %s: %w", pinNames[i], err)
	}
	d.level[i], d.known[i] = l, true
	return nil
}

// nibble puts rs and n on the bus and pulses E: the controller latches on E's falling
// edge. E stays high EnableHigh (PWEH) and the next rise is EnableCycle (tcycE) later.
// With R/W wired, R/W is set low (write) first; the level cache makes that free except
// after a read.
func (d *Dev) nibble(rs gpio.Level, n byte) error {
	if d.pins[pinRW] != nil {
		if err := d.out(pinRW, gpio.Low); err != nil {
			return err
		}
	}
	if err := d.out(pinRS, rs); err != nil {
		return err
	}
	for b := range 4 {
		if err := d.out(pinD4+b, gpio.Level(n&(1<<b) != 0)); err != nil {
			return err
		}
	}
	if err := d.out(pinE, gpio.High); err != nil {
		return err
	}
	d.clk.Sleep(d.t.EnableHigh)
	if err := d.out(pinE, gpio.Low); err != nil {
		return err
	}
	d.clk.Sleep(d.t.EnableCycle - d.t.EnableHigh)
	return nil
}

// send transfers one byte, high nibble first, then waits its execution time.
func (d *Dev) send(rs gpio.Level, b byte) error {
	if err := d.nibble(rs, b>>4); err != nil {
		return err
	}
	if err := d.nibble(rs, b&0x0F); err != nil {
		return err
	}
	if rs == gpio.Low && (b == cmdClear || b&0xFE == cmdHome) {
		d.clk.Sleep(d.t.ExecSlow)
	} else {
		d.clk.Sleep(d.t.Exec)
	}
	return nil
}

func (d *Dev) command(c byte) error { return d.send(gpio.Low, c) }

// data writes one character code at the address counter and mirrors what the controller
// does with it.
func (d *Dev) data(c byte) error {
	if err := d.send(gpio.High, c); err != nil {
		return err
	}
	d.mem[d.index(d.ac)] = c
	d.ac = d.step(d.ac, true)
	if d.autoS {
		d.offset++
	}
	return nil
}

// setAddr moves the address counter, unless it is there already.
func (d *Dev) setAddr(a byte) error {
	if d.ac == a && !d.inCGRAM {
		return nil
	}
	if err := d.command(cmdSetDDRAM | a); err != nil {
		return err
	}
	d.ac, d.inCGRAM = a, false
	return nil
}

func (d *Dev) twoLine() bool { return d.geo.Rows > 1 }

// index maps a DDRAM address to mem.
func (d *Dev) index(a byte) int { return hd44780.Index(d.twoLine(), a) }

// step is the controller's address counter increment or decrement, with its wrap-around.
func (d *Dev) step(a byte, forward bool) byte { return hd44780.Step(d.twoLine(), a, forward) }

// addr returns the DDRAM address shown at row, col (0-based) with the current shift.
// Rows 0 and 1 are the controller's two lines (0x00, 0x40); on a 4-row panel rows 2 and 3
// continue them (0x14, 0x54 on a 20×4).
func (d *Dev) addr(row, col int) byte {
	a, _ := hd44780.Addr(d.twoLine(), d.geo.Cols, row, col, d.offset)
	return a
}

// position returns the row and column where address a is shown, ok false when it is off
// screen.
func (d *Dev) position(a byte) (row, col int, ok bool) {
	for r := range d.geo.Rows {
		for c := range d.geo.Cols {
			if d.addr(r, c) == a {
				return r, c, true
			}
		}
	}
	return 0, 0, false
}

// ErrNoBacklight is returned when the backlight is switched on a panel without one wired.
var ErrNoBacklight = errors.New("display: no backlight pin")

// ErrNotResponding is wrapped by the error Check returns when the panel does not answer as
// one showing the driver's screen would: its busy flag never clears (dead, unplugged, or
// its lines float) or what it reads back differs from what was written.
var ErrNotResponding = errors.New("panel not responding")
