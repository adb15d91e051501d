package display

import (
	"fmt"

	"periph.io/x/conn/v3/gpio"
)

// Reading the panel needs R/W wired (Pins.RW). HD44780U datasheet ADE-207-272(Z), table 6:
// "Read busy flag & address" (RS=0, R/W=1) gives the busy flag on DB7 and the address
// counter on DB6–DB0; "Read data from CG or DDRAM" (RS=1, R/W=1, 37 µs + tADD) gives the
// byte at the address counter, which then advances as on a write (without display shift),
// and is only valid after a set address instruction. In 4-bit mode a byte comes in two
// nibbles, high then low, each on D4–D7 during an E high pulse, valid tDDR after E rises
// ("Bus Timing Characteristics", read operation: 360 ns max at 3 V, 160 ns at 5 V).

// CanCheck reports whether Check can read the panel back: R/W is wired.
func (d *Dev) CanCheck() bool { return d.pins[pinRW] != nil }

// Check tells whether the panel is alive, by reading it back when R/W is wired; without
// R/W nothing can be read and Check returns nil. It reads the busy flag until it clears
// (for at most ExecSlow on the driver's clock, polling every Exec), compares the address
// counter with the driver's, then reads every visible DDRAM cell and compares it with
// what the driver wrote. A busy flag that never clears (a dead or unplugged panel: D4–D7
// float and read high through the pull-ups) or any difference returns an error wrapping
// ErrNotResponding; a GPIO failure returns an error without it. The address counter is
// set back where the driver had it.
func (d *Dev) Check() error {
	if !d.CanCheck() {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	ac, err := d.waitReady()
	if err == nil && !d.inCGRAM && ac != d.ac {
		err = fmt.Errorf("address counter reads %#02x, %#02x expected: %w", ac, d.ac, ErrNotResponding)
	}
	if err == nil {
		err = d.readBack()
		// The reads moved the address counter: put it back, whatever they found.
		if e := d.command(cmdSetDDRAM | d.ac); err == nil {
			err = e
		}
		d.inCGRAM = false
	}
	if err != nil {
		return fmt.Errorf("display: check: %w", err)
	}
	return nil
}

// waitReady reads the busy flag until it clears, for at most ExecSlow (the driver has
// already waited each instruction's time, so it is normally clear at once), and returns
// the address counter. When the flag was seen set, the counter is read again Exec later:
// it is updated tADD after the flag clears.
func (d *Dev) waitReady() (byte, error) {
	deadline := d.clk.Now().Add(d.t.ExecSlow)
	for busy := false; ; {
		s, err := d.read(gpio.Low)
		switch {
		case err != nil:
			return 0, err
		case s&0x80 == 0 && !busy:
			return s, nil
		case s&0x80 == 0:
			busy = false
		case !d.clk.Now().Before(deadline):
			return 0, fmt.Errorf("busy flag still set after %v (status %#02x): %w", d.t.ExecSlow, s, ErrNotResponding)
		default:
			busy = true
		}
		d.clk.Sleep(d.t.Exec)
	}
}

// readBack reads the visible cells row by row and compares them with the mirror. A set
// DDRAM address precedes the first read and every jump (the next row, or the wrap of a
// shifted display); consecutive cells are read in sequence, the counter advancing.
func (d *Dev) readBack() error {
	next, known := byte(0), false
	for r := range d.geo.Rows {
		for c := range d.geo.Cols {
			a := d.addr(r, c)
			if !known || a != next {
				if err := d.command(cmdSetDDRAM | a); err != nil {
					return err
				}
			}
			got, err := d.read(gpio.High)
			if err != nil {
				return err
			}
			d.clk.Sleep(d.t.Exec)
			if want := d.mem[d.index(a)]; got != want {
				return fmt.Errorf("row %d column %d reads %#02x, %#02x was written: %w", r, c, got, want, ErrNotResponding)
			}
			next, known = d.step(a, true), true
		}
	}
	return nil
}

// read transfers one byte from the panel: D4–D7 become inputs with pull-ups (a panel that
// does not answer reads 0xFF), R/W goes high, two E pulses give the high then the low
// nibble, then R/W goes low and only then D4–D7 are outputs again (driven low), so the
// host never drives the bus while the panel may.
func (d *Dev) read(rs gpio.Level) (byte, error) {
	if err := d.out(pinRS, rs); err != nil {
		return 0, err
	}
	for i, p := range d.dataIn {
		d.known[pinD4+i] = false
		if err := p.In(gpio.PullUp, gpio.NoEdge); err != nil {
			return 0, fmt.Errorf("read %s: %w", pinNames[pinD4+i], err)
		}
	}
	if err := d.out(pinRW, gpio.High); err != nil {
		return 0, err
	}
	hi, err := d.readNibble()
	lo := byte(0)
	if err == nil {
		lo, err = d.readNibble()
	}
	if e := d.out(pinRW, gpio.Low); e != nil {
		return 0, e // R/W may still be high: leave D4–D7 as inputs
	}
	for b := range 4 {
		if e := d.out(pinD4+b, gpio.Low); err == nil {
			err = e
		}
	}
	return hi<<4 | lo, err
}

// readNibble pulses E with R/W high and samples D4–D7 DataDelay (tDDR) after E rises,
// while the panel drives them. E stays high at least EnableHigh (PWEH) and the next rise
// is EnableCycle (tcycE) after this one.
func (d *Dev) readNibble() (byte, error) {
	if err := d.out(pinE, gpio.High); err != nil {
		return 0, err
	}
	d.clk.Sleep(d.t.DataDelay)
	n := byte(0)
	for b, p := range d.dataIn {
		if p.Read() == gpio.High {
			n |= 1 << b
		}
	}
	d.clk.Sleep(d.t.EnableHigh - d.t.DataDelay)
	if err := d.out(pinE, gpio.Low); err != nil {
		return 0, err
	}
	d.clk.Sleep(d.t.EnableCycle - max(d.t.EnableHigh, d.t.DataDelay))
	return n, nil
}
