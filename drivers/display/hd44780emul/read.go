package hd44780emul

import (
	"time"

	"periph.io/x/conn/v3/gpio"
)

// Reads, with R/W wired (WireRW) and high (HD44780U datasheet ADE-207-272(Z), table 6):
//
//   - RS low, "Read busy flag & address": DB7 is the busy flag, DB6–DB0 the address
//     counter. It may be read while busy; that is its purpose.
//   - RS high, "Read data from CG or DDRAM": the byte at the address counter, which then
//     moves by one as the entry mode's I/D says (37 µs; no display shift on a read). Only
//     valid after a set address or a cursor shift, or after another data read: after a
//     write "the RAM data selected by the AC cannot be read out".
//
// After a RAM write or read the address counter moves tADD after the busy flag clears
// (figure 10): a status read shows the old address until then.
//
// In 4-bit mode a byte is read in two E pulses, high nibble first, on D4–D7. The panel
// drives the lines from tDDR after E rises (data delay, 360 ns max at 3 V) until E falls.
// In the 8-bit mode of the handshake a read is one pulse and D4–D7 carry DB7–DB4.

// readRise answers a rising edge of E with R/W high: the panel drives the next nibble.
func (d *Device) readRise(now time.Time) {
	for j, p := range d.dataPins() {
		if !p.IsInput() {
			d.fail("D%d is an output of the host while E rises with R/W high (bus contention)", 4+j)
		}
	}
	if d.havePending {
		d.fail("read after the high nibble of a write (the 4-bit write takes two E pulses)")
		d.havePending = false
	}
	rs := d.levels[iRS]
	var n byte
	switch {
	case d.state < initFourBit:
		if rs == gpio.High {
			d.fail("data read before initialisation")
		}
		n = d.statusByte(now) >> 4
	case d.readPhase == 0:
		d.readRS, d.readByte, d.readPhase = rs, d.readValue(now, rs), 1
		n = d.readByte >> 4
	default:
		if rs != d.readRS {
			d.fail("RS changed between the two nibbles of a read")
		}
		n, d.readPhase = d.readByte&0x0F, 2
	}
	for j, p := range d.dataPins() {
		p.Drive(gpio.Level(n&(1<<j) != 0))
	}
}

// readFall ends a read pulse: the panel releases D4–D7; after the low nibble of a data
// read the address counter moves.
func (d *Device) readFall(now time.Time) {
	for _, p := range d.dataPins() {
		p.Release()
	}
	if d.state < initFourBit {
		d.reads++
		return
	}
	if d.readPhase != 2 {
		return
	}
	d.readPhase = 0
	d.reads++
	if d.readRS == gpio.Low {
		return
	}
	d.acOld = d.ac
	if d.inCGRAM {
		if d.increment {
			d.ac = (d.ac + 1) & 0x3F
		} else {
			d.ac = (d.ac - 1) & 0x3F
		}
	} else {
		d.ac = d.step(d.ac, d.increment)
	}
	d.readValid = true
	d.busy(now, d.Timing.Exec, "data read")
	d.acSettle = d.busyUntil.Add(d.Timing.AddrUpdate)
}

// statusByte is what "Read busy flag & address" returns now: the address counter shows its
// old value until tADD after a RAM access's busy time.
func (d *Device) statusByte(now time.Time) byte {
	b := d.ac & 0x7F
	if now.Before(d.acSettle) {
		b = d.acOld & 0x7F
	}
	if now.Before(d.busyUntil) {
		b |= 0x80
	}
	return b
}

// readValue is the byte a read with RS at rs returns, latched on the first E pulse.
func (d *Device) readValue(now time.Time, rs gpio.Level) byte {
	if rs == gpio.Low {
		return d.statusByte(now)
	}
	if d.state != initReady {
		d.fail("data read before initialisation")
	}
	if now.Before(d.busyUntil) {
		d.fail("data read %v too soon: still busy with %s for %v", now.Sub(d.powerOn), d.busyText(), d.busyUntil.Sub(now))
	}
	if !d.readValid {
		d.fail("data read without a set address or cursor shift before it (the first byte read is invalid)")
	}
	if d.inCGRAM {
		return d.cgram[d.ac&0x3F]
	}
	return d.ddram[d.index(d.ac)]
}

// onRead is called when the host reads D4–D7 as inputs. With R/W high, the lines carry
// the panel's data only while E is high, from tDDR after it rose.
func (d *Device) onRead(i int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dead || d.levels[iRW] != gpio.High {
		return
	}
	now := d.clk.Now()
	switch {
	case d.levels[iE] != gpio.High:
		d.fail("%s read while E was low: the panel drives the bus only while E is high", pinNames[i])
	case now.Sub(d.eRise) < d.Timing.DataDelay:
		d.fail("%s read %v after E rose, before the data delay tDDR %v", pinNames[i], now.Sub(d.eRise), d.Timing.DataDelay)
	}
}
