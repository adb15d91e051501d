package hd44780emul_test

import (
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"

	"github.com/packterm/pos/drivers/display/hd44780emul"
	"github.com/packterm/pos/drivers/gpiosim"
)

// bus drives the emulator's pins by hand, with correct bus timing unless told otherwise,
// to check the emulator's own rules independently of the driver.
type bus struct {
	t   *testing.T
	d   *hd44780emul.Device
	clk *gpiosim.Clock
}

func newBus(t *testing.T) *bus {
	clk := gpiosim.NewClock()
	d, err := hd44780emul.New(16, 2, clk)
	if err != nil {
		t.Fatal(err)
	}
	return &bus{t: t, d: d, clk: clk}
}

func (b *bus) nibble(rs bool, n byte) {
	_ = b.d.RS.Out(gpio.Level(rs))
	for i, p := range []*gpiosim.Pin{b.d.D4, b.d.D5, b.d.D6, b.d.D7} {
		_ = p.Out(gpio.Level(n&(1<<i) != 0))
	}
	_ = b.d.E.Out(gpio.High)
	b.clk.Sleep(time.Microsecond)
	_ = b.d.E.Out(gpio.Low)
	b.clk.Sleep(time.Microsecond)
}

func (b *bus) send(rs bool, v byte, wait time.Duration) {
	b.nibble(rs, v>>4)
	b.nibble(rs, v&0xF)
	b.clk.Sleep(wait)
}

func (b *bus) handshake() {
	b.clk.Sleep(40 * time.Millisecond)
	b.nibble(false, 3)
	b.clk.Sleep(4100 * time.Microsecond)
	b.nibble(false, 3)
	b.clk.Sleep(100 * time.Microsecond)
	b.nibble(false, 3)
	b.clk.Sleep(37 * time.Microsecond)
	b.nibble(false, 2)
	b.clk.Sleep(37 * time.Microsecond)
}

func (b *bus) wantErrors(subs ...string) {
	b.t.Helper()
	errs := b.d.Errors()
	all := ""
	for _, e := range errs {
		all += e.Error() + "\n"
	}
	for _, s := range subs {
		if !strings.Contains(all, s) {
			b.t.Errorf("no error containing %q in:\n%s", s, all)
		}
	}
	if len(subs) == 0 && len(errs) > 0 {
		b.t.Errorf("unexpected errors:\n%s", all)
	}
}

func TestHandSequence(t *testing.T) {
	b := newBus(t)
	b.handshake()
	b.send(false, 0x28, 37*time.Microsecond)
	b.send(false, 0x0F, 37*time.Microsecond) // display, cursor, blink
	b.send(false, 0x01, 1520*time.Microsecond)
	for _, c := range []byte("Hi") {
		b.send(true, c, 37*time.Microsecond)
	}
	b.send(false, 0xC0, 37*time.Microsecond) // line 2
	// CGRAM glyph 1, then shown at line 2.
	b.send(false, 0x48, 37*time.Microsecond)
	glyph := [8]byte{0x04, 0x0E, 0x1F, 0x0E, 0x04, 0, 0, 0}
	for _, row := range glyph {
		b.send(true, row, 37*time.Microsecond)
	}
	b.send(false, 0xC0, 37*time.Microsecond)
	b.send(true, 0x01, 37*time.Microsecond)
	b.send(true, 0x09, 37*time.Microsecond) // codes 8–15 mirror 0–7
	b.send(true, 0x5C, 37*time.Microsecond) // ¥ in ROM A00
	b.wantErrors()
	if got := b.d.Text(); got != "Hi              \n{cg1}{cg1}¥             " {
		t.Errorf("screen:\n%s", got)
	}
	b.d.Names = map[[8]byte]string{glyph: "◆"}
	if got := b.d.Lines()[1]; !strings.HasPrefix(got, "{◆}{◆}¥") {
		t.Errorf("named glyph: %q", got)
	}
	s := b.d.State()
	if !s.Ready || !s.Cursor || !s.Blink || s.CursorRow != 1 || s.CursorCol != 3 {
		t.Errorf("state %+v", s)
	}
	// Display shift right by one: column 0 now shows what was before column 0 (DDRAM 39).
	b.send(false, 0x1C, 37*time.Microsecond)
	if got := b.d.Lines()[0]; got != " Hi             " {
		t.Errorf("after shift right: %q", got)
	}
	// Entry mode decrement: writes go leftwards.
	b.send(false, 0x02, 1520*time.Microsecond)
	b.send(false, 0x04, 37*time.Microsecond)
	b.send(false, 0x85, 37*time.Microsecond)
	for _, c := range []byte("ab") {
		b.send(true, c, 37*time.Microsecond)
	}
	if got := b.d.Lines()[0]; got != "Hi  ba          " {
		t.Errorf("decrement: %q", got)
	}
	b.wantErrors()
}

func TestFourRowAddressing(t *testing.T) {
	clk := gpiosim.NewClock()
	d, _ := hd44780emul.New(20, 4, clk)
	b := &bus{t: t, d: d, clk: clk}
	b.handshake()
	b.send(false, 0x28, 37*time.Microsecond)
	b.send(false, 0x0C, 37*time.Microsecond)
	for i, a := range []byte{0x00, 0x40, 0x14, 0x54} {
		b.send(false, 0x80|a, 37*time.Microsecond)
		b.send(true, '0'+byte(i), 37*time.Microsecond)
	}
	// Line 1 wraps at 0x27 into line 2 (0x40): writing past row 2's end overwrites the start of row 1.
	b.send(false, 0x80|0x27, 37*time.Microsecond)
	b.send(true, 'x', 37*time.Microsecond)
	b.send(true, 'y', 37*time.Microsecond)
	b.wantErrors()
	want := []string{"0", "y", "2                  x", "3"}
	for i, l := range d.Lines() {
		if strings.TrimRight(l, " ") != want[i] {
			t.Errorf("row %d = %q, want %q", i, l, want[i])
		}
	}
}

func TestProtocolErrors(t *testing.T) {
	t.Run("no handshake", func(t *testing.T) {
		b := newBus(t)
		b.clk.Sleep(50 * time.Millisecond)
		b.send(false, 0x28, 37*time.Microsecond) // a driver that assumes 4-bit mode
		b.send(false, 0x0C, 37*time.Microsecond)
		b.wantErrors("4-bit switch (0x2) after 0 of the three", "before initialisation")
	})
	t.Run("data before function set", func(t *testing.T) {
		b := newBus(t)
		b.handshake()
		b.send(true, 'A', 37*time.Microsecond)
		b.wantErrors("data write 0x41 before initialisation")
	})
	t.Run("command before function set", func(t *testing.T) {
		b := newBus(t)
		b.handshake()
		b.send(false, 0x0C, 37*time.Microsecond)
		b.wantErrors("command 0x0c before initialisation")
	})
	t.Run("too soon after clear", func(t *testing.T) {
		b := newBus(t)
		b.handshake()
		b.send(false, 0x28, 37*time.Microsecond)
		b.send(false, 0x01, 37*time.Microsecond)
		b.send(true, 'A', 37*time.Microsecond)
		b.wantErrors("busy with clear display")
	})
	t.Run("data change while E high", func(t *testing.T) {
		b := newBus(t)
		b.clk.Sleep(50 * time.Millisecond)
		_ = b.d.E.Out(gpio.High)
		_ = b.d.D5.Out(gpio.High)
		b.wantErrors("D5 changed while E was high")
	})
	t.Run("short E pulse", func(t *testing.T) {
		b := newBus(t)
		b.clk.Sleep(50 * time.Millisecond)
		_ = b.d.E.Out(gpio.High)
		_ = b.d.E.Out(gpio.Low)
		b.wantErrors("E pulse 0s shorter than PWEH")
	})
	t.Run("bad DDRAM address and font change", func(t *testing.T) {
		b := newBus(t)
		b.handshake()
		b.send(false, 0x28, 37*time.Microsecond)
		b.send(false, 0xB0, 37*time.Microsecond)
		b.send(false, 0x20, 37*time.Microsecond)
		b.wantErrors("set DDRAM address 0x30", "changes lines/font")
	})
	t.Run("errors are bounded", func(t *testing.T) {
		b := newBus(t)
		for range 150 {
			_ = b.d.E.Out(gpio.High)
			_ = b.d.E.Out(gpio.Low)
		}
		errs := b.d.Errors()
		if len(errs) != 101 || !strings.Contains(errs[100].Error(), "more protocol errors dropped") {
			t.Errorf("%d errors, last %v", len(errs), errs[len(errs)-1])
		}
		b.d.ClearErrors()
		b.wantErrors()
	})
}

func TestGeometry(t *testing.T) {
	for _, g := range [][2]int{{0, 2}, {41, 2}, {21, 4}, {16, 5}} {
		if _, err := hd44780emul.New(g[0], g[1], gpiosim.NewClock()); err == nil {
			t.Errorf("%dx%d accepted", g[0], g[1])
		}
	}
}
