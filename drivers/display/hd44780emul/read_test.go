package hd44780emul_test

import (
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"

	"github.com/packterm/pos/drivers/display/hd44780emul"
	"github.com/packterm/pos/drivers/gpiosim"
)

// newRWBus is a hand-driven bus on a 16×2 panel with R/W wired, initialised in 2-line
// mode with "Hi" written at 0x00 (address counter 0x02).
func newRWBus(t *testing.T) *bus {
	b := newBus(t)
	b.d.WireRW()
	b.handshake()
	b.send(false, 0x28, 37*time.Microsecond)
	b.send(false, 0x0C, 37*time.Microsecond)
	b.send(false, 0x01, 1520*time.Microsecond)
	b.send(false, 0x06, 37*time.Microsecond)
	b.send(true, 'H', 37*time.Microsecond)
	b.send(true, 'i', 37*time.Microsecond)
	return b
}

func (b *bus) dataPins() []*gpiosim.Pin { return []*gpiosim.Pin{b.d.D4, b.d.D5, b.d.D6, b.d.D7} }

// startRead makes D4–D7 inputs with pull-ups, then sets RS and R/W high.
func (b *bus) startRead(rs bool) {
	for _, p := range b.dataPins() {
		if err := p.In(gpio.PullUp, gpio.NoEdge); err != nil {
			b.t.Fatal(err)
		}
	}
	_ = b.d.RS.Out(gpio.Level(rs))
	_ = b.d.RW.Out(gpio.High)
}

// endRead puts R/W low and D4–D7 back to outputs.
func (b *bus) endRead() {
	_ = b.d.RW.Out(gpio.Low)
	for _, p := range b.dataPins() {
		_ = p.Out(gpio.Low)
	}
}

// readNibble pulses E and samples D4–D7 sample after it rises (E high 1 µs in all).
func (b *bus) readNibble(sample time.Duration) byte {
	_ = b.d.E.Out(gpio.High)
	b.clk.Sleep(sample)
	n := byte(0)
	for i, p := range b.dataPins() {
		if p.Read() == gpio.High {
			n |= 1 << i
		}
	}
	b.clk.Sleep(time.Microsecond - sample)
	_ = b.d.E.Out(gpio.Low)
	b.clk.Sleep(time.Microsecond)
	return n
}

// read transfers one byte with correct timing.
func (b *bus) read(rs bool) byte {
	b.startRead(rs)
	v := b.readNibble(400*time.Nanosecond)<<4 | b.readNibble(400*time.Nanosecond)
	b.endRead()
	return v
}

func TestReadBusyFlagAndAddress(t *testing.T) {
	b := newRWBus(t)
	b.nibble(true, '!'>>4)
	b.nibble(true, '!'&0xF) // no wait: the controller is busy with it
	if got := b.read(false); got != 0x80|0x02 {
		t.Errorf("busy read %#02x, want busy flag and address 0x02", got)
	}
	b.clk.Sleep(37 * time.Microsecond)
	if got := b.read(false); got != 0x03 {
		t.Errorf("idle read %#02x, want address 0x03 without busy flag", got)
	}
	if s := b.d.State(); s.Reads != 2 || s.Transfers != 7 {
		t.Errorf("reads %d, transfers %d", s.Reads, s.Transfers)
	}
	b.wantErrors()
}

func TestReadData(t *testing.T) {
	b := newRWBus(t)
	b.send(false, 0x80, 37*time.Microsecond)
	for _, want := range []byte("Hi ") {
		if got := b.read(true); got != want {
			t.Errorf("read %q, want %q", got, want)
		}
		b.clk.Sleep(37 * time.Microsecond)
	}
	if s := b.d.State(); s.Address != 0x03 {
		t.Errorf("address %#02x after three reads, want 0x03", s.Address)
	}
	// Entry mode decrement with display shift: reads move the counter back, never shift.
	b.send(false, 0x05, 37*time.Microsecond)
	b.send(false, 0x01|0x80, 37*time.Microsecond)
	if got := b.read(true); got != 'i' {
		t.Errorf("read %q at 0x01, want 'i'", got)
	}
	b.clk.Sleep(37 * time.Microsecond)
	if s := b.d.State(); s.Address != 0x00 || s.Shift != 0 {
		t.Errorf("after a decrementing read: address %#02x, shift %d", s.Address, s.Shift)
	}
	// CGRAM: the bitmap row written is read back.
	b.send(false, 0x06, 37*time.Microsecond)
	b.send(false, 0x48, 37*time.Microsecond)
	b.send(true, 0x15, 37*time.Microsecond)
	b.send(false, 0x48, 37*time.Microsecond)
	if got := b.read(true); got != 0x15 {
		t.Errorf("CGRAM read %#02x, want 0x15", got)
	}
	b.clk.Sleep(37 * time.Microsecond)
	b.wantErrors()
}

func TestReadProtocolErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(b *bus)
		want string
	}{
		{"data lines left as outputs", func(b *bus) {
			_ = b.d.RW.Out(gpio.High)
			b.readNibble(400 * time.Nanosecond)
		}, "D4 is an output of the host while E rises with R/W high"},
		{"data line driven with R/W high", func(b *bus) {
			b.startRead(false)
			_ = b.d.D6.Out(gpio.High)
		}, "D6 driven by the host while R/W was high"},
		{"sampled before tDDR", func(b *bus) {
			b.startRead(false)
			b.readNibble(100 * time.Nanosecond)
		}, "D4 read 100ns after E rose, before the data delay tDDR 360ns"},
		{"sampled after E fell", func(b *bus) {
			b.startRead(false)
			_ = b.d.D4.Read()
		}, "D4 read while E was low"},
		{"data read while busy", func(b *bus) {
			b.send(false, 0x80, 0)
			b.read(true)
		}, "too soon: still busy with instruction 0x80"},
		{"data read after a write", func(b *bus) {
			b.read(true)
		}, "data read without a set address"},
		{"write between read nibbles", func(b *bus) {
			b.startRead(false)
			b.readNibble(400 * time.Nanosecond)
			b.endRead()
			b.nibble(false, 0x8)
		}, "write after the high nibble of a read"},
		{"read between write nibbles", func(b *bus) {
			b.nibble(false, 0x8)
			b.read(false)
		}, "read after the high nibble of a write"},
		{"R/W changed while E high", func(b *bus) {
			_ = b.d.E.Out(gpio.High)
			_ = b.d.RW.Out(gpio.High)
		}, "RW changed while E was high"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newRWBus(t)
			b.wantErrors()
			tc.run(b)
			b.wantErrors(tc.want)
		})
	}
}

func TestDeadPanel(t *testing.T) {
	b := newRWBus(t)
	before := b.d.State().Transfers
	b.d.SetDead(true)
	b.send(true, 'X', 37*time.Microsecond)
	if got := b.read(false); got != 0xFF {
		t.Errorf("status of a dead panel read %#02x, want 0xff (pull-ups, busy flag stuck)", got)
	}
	s := b.d.State()
	if !s.Dead || s.Transfers != before || b.d.Lit() || b.d.Lines()[0] != "Hi              " {
		t.Errorf("dead panel took the write or is lit: %+v %q", s, b.d.Lines())
	}
	b.wantErrors()
	b.d.SetDead(false)
	if s := b.d.State(); s.Dead || s.Ready {
		t.Errorf("a panel plugged back in is not reset: %+v", s)
	}
}

func TestNoRWByDefault(t *testing.T) {
	d, err := hd44780emul.New(16, 2, gpiosim.NewClock())
	if err != nil {
		t.Fatal(err)
	}
	if d.RW != nil {
		t.Error("R/W wired by default")
	}
	if rw := d.WireRW(); rw == nil || d.WireRW() != rw || d.RW != rw {
		t.Error("WireRW does not return one pin")
	}
}
