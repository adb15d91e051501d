package hd44780emul

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
	"periph.io/x/conn/v3/gpio"

	"github.com/packterm/pos/drivers/display/hd44780"
	"github.com/packterm/pos/drivers/gpiosim"
)

// initState is the progress of the power-on handshake.
type initState int

const (
	initPowerOn initState = iota // 8-bit interface after reset, nothing received
	initGot1                     // first 0x3 received
	initGot2                     // second 0x3 received
	initGot3                     // third 0x3 received, waiting for 0x2
	initFourBit                  // 4-bit interface, waiting for the function set
	initReady                    // function set done: normal operation
)

// ProtocolError is a violation of the HD44780U interface rules seen by the emulator.
type ProtocolError struct {
	At  time.Duration // time since power-on
	Msg string
}

func (e *ProtocolError) Error() string {
	return fmt.Sprintf("hd44780emul: at %v: %s", e.At, e.Msg)
}

// maxErrors bounds the errors kept, so a broken driver in a loop cannot eat the memory.
const maxErrors = 100

// Device is an emulated HD44780U panel of Cols×Rows characters wired in 4-bit mode.
//
// The pins are the device's inputs: hand them to the driver. Set Timing and Names (and
// call WireRW) before the first write; read the state through the methods, which are safe
// for concurrent use.
type Device struct {
	RS, E, D4, D5, D6, D7 *gpiosim.Pin
	// BL is the backlight pin (high: lit).
	BL *gpiosim.Pin
	// RW is the R/W pin once WireRW has wired it; nil means R/W tied to ground (always
	// write), as on the boards that never read the panel.
	RW *gpiosim.Pin
	// Timing is the set of minimum delays enforced (default Timing3V).
	Timing Timing
	// Names maps CGRAM bitmaps (8 rows of 5 bits) to the character a person reads there,
	// e.g. "€"; unnamed glyphs show as "{cgN}".
	Names map[[8]byte]string

	cols, rows int
	clk        clockwork.Clock

	mu      sync.Mutex
	powerOn time.Time
	levels  [7]gpio.Level // RS, E, D4..D7, RW as last seen
	eRise   time.Time
	rises   int
	state   initState
	// 4-bit transfer in progress: the high nibble received.
	havePending bool
	pendingRS   gpio.Level
	pendingHigh byte
	busyUntil   time.Time
	busyWith    string // what keeps the controller busy; %#02x is busyByte
	busyByte    byte
	// 4-bit read in progress: 1 after the high nibble, 2 after the low one (until E falls).
	readPhase int
	readRS    gpio.Level
	readByte  byte
	// readValid: the data register holds the byte at the address counter (after a set
	// address, a cursor shift or a data read; not after a data write).
	readValid bool
	// After a RAM write or read, "Read busy flag & address" shows acOld until acSettle
	// (tADD after the busy flag clears, datasheet figure 10).
	acOld    byte
	acSettle time.Time
	dead     bool

	ddram     [80]byte
	cgram     [hd44780.CGRAMSize]byte
	ac        byte
	inCGRAM   bool
	increment bool
	shiftData bool
	displayOn bool
	cursorOn  bool
	blinkOn   bool
	twoLine   bool
	bigFont   bool
	offset    int // display shift: visible column 0 shows DDRAM column offset

	transfers int
	reads     int
	errs      []error
	dropped   int
}

const (
	iRS = iota
	iE
	iD4
	iD5
	iD6
	iD7
	iRW
)

var pinNames = [...]string{"RS", "E", "D4", "D5", "D6", "D7", "RW"}

// New returns a powered-on emulated panel of cols×rows characters (16×2, 20×4, or any
// geometry up to 40 columns of 2 lines or 20 columns of 4) whose time comes from clk.
// Power-on happens now, by clk.
func New(cols, rows int, clk clockwork.Clock) (*Device, error) {
	if cols < 1 || rows < 1 || rows > 4 || (rows <= 2 && cols > 40) || (rows > 2 && cols > 20) {
		return nil, fmt.Errorf("hd44780emul: unsupported geometry %dx%d", cols, rows)
	}
	d := &Device{Timing: Timing3V(), cols: cols, rows: rows, clk: clk}
	pins := []**gpiosim.Pin{&d.RS, &d.E, &d.D4, &d.D5, &d.D6, &d.D7}
	for i, p := range pins {
		pin := gpiosim.NewPin("LCD_"+pinNames[i], i, clk)
		pin.OnChange = func(l gpio.Level) { d.onPin(i, l) }
		if i >= iD4 {
			pin.OnRead = func(gpio.Level) { d.onRead(i) }
		}
		*p = pin
	}
	d.BL = gpiosim.NewPin("LCD_BL", 6, clk)
	d.powerCycleLocked()
	return d, nil
}

// PowerCycle emulates switching the panel off and on: everything is reset, as by the
// internal reset circuit, and the power-on delay starts again.
func (d *Device) PowerCycle() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.powerCycleLocked()
}

func (d *Device) powerCycleLocked() {
	d.powerOn = d.clk.Now()
	d.state = initPowerOn
	d.havePending, d.readPhase, d.readValid = false, 0, false
	d.busyUntil = d.powerOn.Add(d.Timing.PowerOn)
	d.busyWith = "power-on reset"
	for i := range d.ddram {
		d.ddram[i] = ' '
	}
	// CGRAM content is undefined at power-on; zero is as good as anything.
	d.cgram = [hd44780.CGRAMSize]byte{}
	d.ac, d.inCGRAM, d.offset = 0, false, 0
	d.acSettle = time.Time{}
	// Reset state (datasheet "Initializing by Internal Reset Circuit").
	d.increment, d.shiftData = true, false
	d.displayOn, d.cursorOn, d.blinkOn = false, false, false
	d.twoLine, d.bigFont = false, false
	d.errs, d.dropped, d.transfers, d.reads = nil, 0, 0, 0
}

// WireRW wires the R/W pin, as a board that connects it to a GPIO instead of ground, and
// returns it (also in d.RW; calling it again returns the same pin). With R/W high, each
// rising edge of E makes the panel drive D4–D7 with the next nibble of a read; the host
// must have them as inputs (gpio.PinIn.In) by then. Call it before handing the pins to
// the driver.
func (d *Device) WireRW() *gpiosim.Pin {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.RW == nil {
		d.RW = gpiosim.NewPin("LCD_RW", 7, d.clk)
		d.RW.OnChange = func(l gpio.Level) { d.onPin(iRW, l) }
	}
	return d.RW
}

// SetDead emulates a dead or unplugged panel (dead true): writes are ignored, nothing is
// lit, and the panel no longer drives D4–D7 on a read, so the host reads what its own
// pulls give: all lines high with pull-ups, i.e. a busy flag stuck at 1 and data 0xFF.
// SetDead(false) plugs the panel back in: a power cycle (see PowerCycle), after which the
// driver must initialise it again.
func (d *Device) SetDead(dead bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dead && !dead {
		d.powerCycleLocked()
	}
	d.dead = dead
	if dead {
		for _, p := range d.dataPins() {
			p.Release()
		}
	}
}

func (d *Device) dataPins() [4]*gpiosim.Pin { return [4]*gpiosim.Pin{d.D4, d.D5, d.D6, d.D7} }

func (d *Device) fail(format string, args ...any) {
	if len(d.errs) >= maxErrors {
		d.dropped++
		return
	}
	d.errs = append(d.errs, &ProtocolError{At: d.clk.Now().Sub(d.powerOn), Msg: fmt.Sprintf(format, args...)})
}

// onPin is called on every Out of one of the bus pins (RS, E, D4–D7, RW when wired). A
// dead panel ignores them.
func (d *Device) onPin(i int, l gpio.Level) {
	d.mu.Lock()
	defer d.mu.Unlock()
	prev := d.levels[i]
	d.levels[i] = l
	if d.dead {
		return
	}
	if i >= iD4 && i <= iD7 && d.levels[iRW] == gpio.High {
		d.fail("%s driven by the host while R/W was high (the panel drives the bus on reads)", pinNames[i])
	}
	if prev == l {
		return
	}
	now := d.clk.Now()
	if i != iE {
		if d.levels[iE] == gpio.High {
			d.fail("%s changed while E was high (setup/hold violation)", pinNames[i])
		}
		return
	}
	if l == gpio.High {
		if d.rises > 0 && now.Sub(d.eRise) < d.Timing.EnableCycle {
			d.fail("E cycle %v shorter than tcycE %v", now.Sub(d.eRise), d.Timing.EnableCycle)
		}
		d.eRise = now
		d.rises++
		if d.levels[iRW] == gpio.High {
			d.readRise(now)
		}
		return
	}
	if w := now.Sub(d.eRise); w < d.Timing.EnableHigh {
		d.fail("E pulse %v shorter than PWEH %v", w, d.Timing.EnableHigh)
	}
	if d.levels[iRW] == gpio.High {
		d.readFall(now)
		return
	}
	d.latch(now)
}

// latch handles a falling edge of E: one nibble on D4–D7.
func (d *Device) latch(now time.Time) {
	n := byte(0)
	for b, idx := range []int{iD4, iD5, iD6, iD7} {
		if d.levels[idx] == gpio.High {
			n |= 1 << b
		}
	}
	rs := d.levels[iRS]
	if d.readPhase != 0 {
		d.fail("write after the high nibble of a read (the 4-bit read takes two E pulses)")
		d.readPhase = 0
	}
	if d.state < initFourBit {
		d.checkBusy(now)
		d.handshake(now, rs, n)
		return
	}
	if !d.havePending {
		d.checkBusy(now)
		d.havePending, d.pendingRS, d.pendingHigh = true, rs, n
		return
	}
	d.havePending = false
	if rs != d.pendingRS {
		d.fail("RS changed between the two nibbles of a transfer")
	}
	b := d.pendingHigh<<4 | n
	d.transfers++
	if d.pendingRS == gpio.High {
		d.writeData(now, b)
	} else {
		d.instruction(now, b)
	}
}

func (d *Device) checkBusy(now time.Time) {
	if now.Before(d.busyUntil) {
		d.fail("write %v too soon: still busy with %s for %v", now.Sub(d.powerOn), d.busyText(), d.busyUntil.Sub(now))
	}
}

// busyText says what keeps the controller busy.
func (d *Device) busyText() string {
	if strings.Contains(d.busyWith, "%") {
		return fmt.Sprintf(d.busyWith, d.busyByte)
	}
	return d.busyWith
}

// busy marks the controller busy for dur with what (a format taking b, or plain text);
// formatting waits for an error, to keep the emulator cheap.
func (d *Device) busy(now time.Time, dur time.Duration, what string, b ...byte) {
	if len(b) > 0 {
		d.busyByte = b[0]
	}
	d.busyUntil = now.Add(dur)
	d.busyWith = what
}

// handshake runs the 8-bit interface steps of the power-on initialisation, where each
// nibble is a whole instruction with D0–D3 low.
func (d *Device) handshake(now time.Time, rs gpio.Level, n byte) {
	if rs == gpio.High {
		d.fail("data write before initialisation")
		return
	}
	switch {
	case n == 0x3 && d.state <= initGot2:
		waits := []time.Duration{d.Timing.InitStep1, d.Timing.InitStep2, d.Timing.Exec}
		d.busy(now, waits[d.state], "handshake step %d (0x3)", byte(d.state+1))
		d.state++
	case n == 0x2:
		if d.state != initGot3 {
			d.fail("4-bit switch (0x2) after %d of the three 0x3 handshake steps", int(d.state))
		}
		d.state = initFourBit
		d.busy(now, d.Timing.Exec, "function set (4-bit)")
	case n == 0x3:
		// 0x3 once more: still a valid 8-bit function set.
		d.busy(now, d.Timing.Exec, "function set (8-bit)")
	default:
		d.fail("command %#x before initialisation (4-bit handshake not done)", n<<4)
		d.busy(now, d.Timing.Exec, "instruction before initialisation")
	}
}

// instruction executes an 8-bit instruction received over the 4-bit interface.
func (d *Device) instruction(now time.Time, b byte) {
	if d.state == initFourBit && hd44780.Decode(b) != hd44780.OpFunctionSet {
		d.fail("command %#02x before initialisation (function set expected first)", b)
	}
	switch hd44780.Decode(b) {
	case hd44780.OpClear:
		for i := range d.ddram {
			d.ddram[i] = ' '
		}
		d.ac, d.inCGRAM, d.offset, d.increment = 0, false, 0, true
		d.readValid = false
		d.busy(now, d.Timing.ExecSlow, "clear display")
		return
	case hd44780.OpHome:
		d.ac, d.inCGRAM, d.offset = 0, false, 0
		d.readValid = false
		d.busy(now, d.Timing.ExecSlow, "return home")
		return
	case hd44780.OpEntryMode:
		d.increment, d.shiftData = b&hd44780.EntryInc != 0, b&hd44780.EntryShift != 0
	case hd44780.OpDisplay:
		d.displayOn, d.cursorOn, d.blinkOn = b&hd44780.DisplayOn != 0, b&hd44780.CursorOn != 0, b&hd44780.BlinkOn != 0
	case hd44780.OpShift:
		right := b&hd44780.ShiftRight != 0
		if b&hd44780.ShiftDisplay != 0 {
			if right {
				d.offset--
			} else {
				d.offset++
			}
		} else {
			// A cursor shift sets the address like set DDRAM address: reads are valid.
			d.ac = d.step(d.ac, right)
			d.readValid = !d.inCGRAM
		}
	case hd44780.OpFunctionSet:
		if b&hd44780.EightBit != 0 {
			// Back to the 8-bit interface, as at the start of a re-initialisation by
			// instruction (D0–D3 are not wired, so only function sets make sense now).
			d.state = initGot3
			d.busy(now, d.Timing.Exec, "function set (8-bit)")
			return
		}
		two, big := b&hd44780.TwoLines != 0, b&hd44780.Font5x10 != 0
		if d.state == initFourBit {
			d.twoLine, d.bigFont = two, big
			d.state = initReady
		} else if two != d.twoLine || big != d.bigFont {
			d.fail("function set %#02x changes lines/font after initialisation", b)
		}
	case hd44780.OpSetCGRAM:
		d.ac, d.inCGRAM, d.readValid = b&0x3F, true, true
	case hd44780.OpSetDDRAM:
		a := b & 0x7F
		if !d.validDDRAM(a) {
			d.fail("set DDRAM address %#02x: no such address in %s mode", a, map[bool]string{true: "2-line", false: "1-line"}[d.twoLine])
		}
		d.ac, d.inCGRAM, d.readValid = a, false, true
	default: // 0x00: no instruction of table 6; the controller only gets busy
	}
	d.busy(now, d.Timing.Exec, "instruction %#02x", b)
}

func (d *Device) writeData(now time.Time, b byte) {
	if d.state != initReady {
		d.fail("data write %#02x before initialisation", b)
	}
	// "The RAM data selected by the AC cannot be read out" after a write (datasheet, Read
	// data from CG or DDRAM): a set address or cursor shift must come first.
	d.readValid = false
	d.acOld = d.ac
	if d.inCGRAM {
		d.cgram[d.ac&0x3F] = b & 0x1F
		if d.increment {
			d.ac = (d.ac + 1) & 0x3F
		} else {
			d.ac = (d.ac - 1) & 0x3F
		}
	} else {
		d.ddram[d.index(d.ac)] = b
		d.ac = d.step(d.ac, d.increment)
		if d.shiftData {
			if d.increment {
				d.offset++
			} else {
				d.offset--
			}
		}
	}
	d.busy(now, d.Timing.Exec, "data write %#02x", b)
	d.acSettle = d.busyUntil.Add(d.Timing.AddrUpdate)
}

func (d *Device) validDDRAM(a byte) bool { return hd44780.Valid(d.twoLine, a) }

// index maps a DDRAM address to the ddram array (0–39 line 1, 40–79 line 2 in 2-line mode).
func (d *Device) index(a byte) int { return hd44780.Index(d.twoLine, a) }

// step moves the DDRAM address counter one place, wrapping as the controller does.
func (d *Device) step(a byte, forward bool) byte { return hd44780.Step(d.twoLine, a, forward) }

// cell returns the DDRAM index shown at row r, column c, or -1 if nothing is shown there.
func (d *Device) cell(r, c int) int {
	a, ok := hd44780.Addr(d.twoLine, d.cols, r, c, d.offset)
	if !ok {
		return -1
	}
	return d.index(a)
}

// glyphName returns how a person reads CGRAM character n.
func (d *Device) glyphName(n int) string {
	var g [8]byte
	copy(g[:], d.cgram[8*n:8*n+8])
	if name, ok := d.Names[g]; ok {
		return "{" + name + "}"
	}
	return fmt.Sprintf("{cg%d}", n)
}

func (d *Device) char(code byte) string {
	if code < 0x10 {
		return d.glyphName(int(code & 7))
	}
	return decodeROM(code)
}

// Cells returns what each cell shows, row by row: one character, or a glyph's name in
// braces ("{€}", "{cg3}" when unnamed), whether or not the display is on.
func (d *Device) Cells() [][]string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([][]string, d.rows)
	for r := range d.rows {
		out[r] = make([]string, d.cols)
		for c := range d.cols {
			out[r][c] = " "
			if i := d.cell(r, c); i >= 0 {
				out[r][c] = d.char(d.ddram[i])
			}
		}
	}
	return out
}

// Lines returns what each row shows, glyphs in braces, whether or not the display is on.
func (d *Device) Lines() []string {
	cells := d.Cells()
	out := make([]string, len(cells))
	for r, row := range cells {
		out[r] = strings.Join(row, "")
	}
	return out
}

// Text returns Lines joined by newlines.
func (d *Device) Text() string { return strings.Join(d.Lines(), "\n") }

// Visible returns what a person sees: the lines when the display is on and the
// handshake is done, blank lines otherwise.
func (d *Device) Visible() []string {
	d.mu.Lock()
	on := d.litLocked()
	d.mu.Unlock()
	if on {
		return d.Lines()
	}
	out := make([]string, d.rows)
	for i := range out {
		out[i] = strings.Repeat(" ", d.cols)
	}
	return out
}

// State is a snapshot of the controller's registers.
type State struct {
	Ready                    bool // handshake and function set done
	DisplayOn, Cursor, Blink bool
	TwoLine, Font5x10        bool
	Increment, ShiftOnWrite  bool
	InCGRAM                  bool
	Address                  byte // address counter
	Shift                    int  // display shift in columns (positive: content moved left)
	CursorRow, CursorCol     int  // cursor position on screen, -1 if off screen or in CGRAM
	Backlight                bool
	Transfers                int  // 8-bit writes (instructions and data) since power-on
	Reads                    int  // 8-bit reads (busy flag and address, data) since power-on
	Dead                     bool // SetDead(true): the panel ignores its pins
}

// State returns the controller's registers.
func (d *Device) State() State {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := State{
		Ready: d.state == initReady, DisplayOn: d.displayOn, Cursor: d.cursorOn, Blink: d.blinkOn,
		TwoLine: d.twoLine, Font5x10: d.bigFont, Increment: d.increment, ShiftOnWrite: d.shiftData,
		InCGRAM: d.inCGRAM, Address: d.ac, Shift: d.offset, CursorRow: -1, CursorCol: -1,
		Backlight: d.BL.Read() == gpio.High, Transfers: d.transfers, Reads: d.reads, Dead: d.dead,
	}
	if !d.inCGRAM {
		idx := d.index(d.ac)
		for r := range d.rows {
			for c := range d.cols {
				if d.cell(r, c) == idx {
					s.CursorRow, s.CursorCol = r, c
					return s
				}
			}
		}
	}
	return s
}

// Errors returns the protocol errors seen since power-on (at most 100 are kept).
func (d *Device) Errors() []error {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := append([]error(nil), d.errs...)
	if d.dropped > 0 {
		out = append(out, fmt.Errorf("hd44780emul: %d more protocol errors dropped", d.dropped))
	}
	return out
}

// ClearErrors forgets the errors seen so far.
func (d *Device) ClearErrors() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.errs, d.dropped = nil, 0
}

// Glyph returns the bitmap of CGRAM character n (0–7), one byte per row, 5 low bits used.
func (d *Device) Glyph(n int) [8]byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	var g [8]byte
	copy(g[:], d.cgram[8*(n&7):8*(n&7)+8])
	return g
}

// GlyphArt draws bitmap g as 8 lines of 5 characters, '#' for a lit dot and '.' for a dark
// one.
func GlyphArt(g [8]byte) string {
	var sb strings.Builder
	for i, row := range g {
		for b := 4; b >= 0; b-- {
			if row&(1<<b) != 0 {
				sb.WriteByte('#')
			} else {
				sb.WriteByte('.')
			}
		}
		if i < 7 {
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// Cols returns the number of columns.
func (d *Device) Cols() int { return d.cols }

// Rows returns the number of rows.
func (d *Device) Rows() int { return d.rows }

// Writes returns the number of Out calls made on the six bus pins, the backlight pin and
// the R/W pin when it is wired.
func (d *Device) Writes() int {
	n := 0
	for _, p := range []*gpiosim.Pin{d.RS, d.E, d.D4, d.D5, d.D6, d.D7, d.BL, d.RW} {
		if p != nil {
			n += p.Writes()
		}
	}
	return n
}
