package terminaltest_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"periph.io/x/conn/v3/gpio"

	"github.com/packterm/pos/device/terminal/terminaltest"
	"github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/drivers/display/hd44780emul"
	"github.com/packterm/pos/drivers/gpioio"
	"github.com/packterm/pos/drivers/gpiosim"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/escpos"
	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/drivers/scanner/scanneremul"
	"github.com/packterm/pos/drivers/serialport"
)

// Each suite runs on the fake and on the real driver over its emulator.

func TestScreenConformance(t *testing.T) {
	for _, geo := range []display.Geometry{display.LCD16x2, display.LCD20x4} {
		name := func(s string) string { return s + "-" + string(rune('0'+geo.Rows)) + "rows" }
		t.Run(name("fake"), func(t *testing.T) {
			terminaltest.ScreenConformance(t, geo, func(t *testing.T) terminaltest.Panel {
				s := &terminaltest.Screen{Geometry: geo}
				return terminaltest.Panel{Screen: s, Lines: s.Lines, Backlight: s.Backlight}
			})
		})
		t.Run(name("hd44780"), func(t *testing.T) {
			terminaltest.ScreenConformance(t, geo, func(t *testing.T) terminaltest.Panel {
				clk := gpiosim.NewClock()
				emu, err := hd44780emul.New(geo.Cols, geo.Rows, clk)
				if err != nil {
					t.Fatal(err)
				}
				names := map[[8]byte]string{}
				for r, g := range display.DefaultFont() {
					names[g] = string(r)
				}
				emu.Names = names
				dev, err := display.New(display.Pins{RS: emu.RS, E: emu.E, D4: emu.D4, D5: emu.D5, D6: emu.D6, D7: emu.D7, Backlight: emu.BL},
					display.Opts{Geometry: geo, Clock: clk})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() {
					for _, err := range emu.Errors() {
						t.Errorf("protocol: %v", err)
					}
				})
				return terminaltest.Panel{Screen: dev, Lines: emu.Screen, Backlight: func() bool { return emu.BL.Read() == gpio.High }}
			})
		})
	}
}

func TestPrinterConformance(t *testing.T) {
	t.Run("fake", func(t *testing.T) {
		terminaltest.PrinterConformance(t, func(t *testing.T) terminaltest.PrinterUnderTest {
			p, err := terminaltest.NewPrinter(t.TempDir(), printer.SpoolOptions{Headroom: -1})
			if err != nil {
				t.Fatal(err)
			}
			printed := func() []string {
				var out []string
				for _, r := range p.Printed() {
					out = append(out, terminaltest.Text(r))
				}
				return out
			}
			paperOut := func(out bool) {
				if out {
					p.SetFault(printer.ErrPaperEnd)
					p.SetState(escpos.Status{PaperEnd: true}, nil)
					return
				}
				p.SetFault(nil)
				p.SetState(escpos.Status{}, nil)
			}
			return terminaltest.PrinterUnderTest{Printer: p, Printed: printed, PaperOut: paperOut}
		})
	})
	t.Run("escpos-printeremul", func(t *testing.T) {
		terminaltest.PrinterConformance(t, func(t *testing.T) terminaltest.PrinterUnderTest {
			emu := printeremul.New(printeremul.Config{Columns: 42})
			port := newMemPort(emu)
			p, err := printer.New(port, printer.Config{SpoolDir: t.TempDir(), Spool: printer.SpoolOptions{Headroom: -1},
				StatusTimeout: 2 * time.Second, PrintTimeout: 5 * time.Second, PollSettle: 10 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			printed := func() []string {
				var out []string
				for _, r := range emu.Receipts() {
					out = append(out, r.Text())
				}
				return out
			}
			paperOut := func(out bool) {
				if out {
					emu.PaperOut()
					return
				}
				port.push(emu.LoadPaper())
			}
			return terminaltest.PrinterUnderTest{Printer: p, Printed: printed, PaperOut: paperOut}
		})
	})
}

// memPort links the printer driver to the emulated printer in memory: what the driver
// writes goes to the emulator, its replies come back to be read.
type memPort struct {
	emu  *printeremul.Printer
	mu   sync.Mutex
	buf  []byte
	more chan struct{}
}

var _ printer.Port = (*memPort)(nil)

func newMemPort(emu *printeremul.Printer) *memPort {
	return &memPort{emu: emu, more: make(chan struct{})}
}

func (p *memPort) Write(b []byte) (int, error) {
	p.push(p.emu.Write(b))
	return len(b), nil
}

func (p *memPort) push(b []byte) {
	if len(b) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf = append(p.buf, b...)
	close(p.more)
	p.more = make(chan struct{})
}

func (p *memPort) ReadContext(ctx context.Context, b []byte) (int, error) {
	for {
		p.mu.Lock()
		if len(p.buf) > 0 {
			n := copy(b, p.buf)
			p.buf = p.buf[n:]
			p.mu.Unlock()
			return n, nil
		}
		more := p.more
		p.mu.Unlock()
		select {
		case <-more:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

func (p *memPort) Discard() {
	p.mu.Lock()
	p.buf = nil
	p.mu.Unlock()
}

func TestScannerConformance(t *testing.T) {
	t.Run("fake", func(t *testing.T) {
		terminaltest.ScannerConformance(t, func(t *testing.T) terminaltest.ScannerUnderTest {
			s := terminaltest.NewScanner()
			return terminaltest.ScannerUnderTest{Source: s, Read: s.Scan}
		})
	})
	t.Run("serial-scanneremul", func(t *testing.T) {
		terminaltest.ScannerConformance(t, func(t *testing.T) terminaltest.ScannerUnderTest {
			emu, err := scanneremul.New(filepath.Join(t.TempDir(), "ttySCN"), scanneremul.Config{Suffix: scanner.CR})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { emu.Close() })
			port, err := serialport.Open(serialport.Config{Path: emu.Path()})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { port.Close() })
			src := scanner.NewSerial(port, scanner.Config{Suffix: scanner.CR})
			read := func(ctx context.Context, text string) error { return emu.Scan(ctx, text, "") }
			return terminaltest.ScannerUnderTest{Source: src, Read: read}
		})
	})
}

// highs counts the rising edges a recording pin saw.
func highs(p *gpiosim.Pin) int {
	n := 0
	for _, c := range p.History() {
		if c.Level == gpio.High {
			n++
		}
	}
	return n
}

func recording(name string, clk clockwork.Clock) *gpiosim.Pin {
	p := gpiosim.NewPin(name, 1, clk)
	p.Record = true
	return p
}

func TestGPIOConformance(t *testing.T) {
	t.Run("led-fake", func(t *testing.T) {
		terminaltest.LEDConformance(t, func(*testing.T) terminaltest.Lamp {
			l := &terminaltest.LED{}
			return terminaltest.Lamp{LED: l, Lit: l.On}
		})
	})
	t.Run("led-gpioio", func(t *testing.T) {
		terminaltest.LEDConformance(t, func(t *testing.T) terminaltest.Lamp {
			p := gpiosim.NewPin("LED", 5, gpiosim.NewClock())
			l, err := gpioio.NewLED("green", p, true)
			if err != nil {
				t.Fatal(err)
			}
			return terminaltest.Lamp{LED: l, Lit: func() bool { return p.Read() == gpio.Low }} // active low
		})
	})
	t.Run("drawer-fake", func(t *testing.T) {
		terminaltest.DrawerConformance(t, func(*testing.T) terminaltest.DrawerUnderTest {
			d := &terminaltest.Drawer{}
			return terminaltest.DrawerUnderTest{Drawer: d, Kicks: d.Opens}
		})
	})
	t.Run("drawer-gpioio", func(t *testing.T) {
		terminaltest.DrawerConformance(t, func(t *testing.T) terminaltest.DrawerUnderTest {
			clk := gpiosim.NewClock()
			p := recording("DRAWER", clk)
			d, err := gpioio.NewDrawer(p, false, 0, clk)
			if err != nil {
				t.Fatal(err)
			}
			return terminaltest.DrawerUnderTest{Drawer: d, Kicks: func() int { return highs(p) }}
		})
	})
	t.Run("buzzer-fake", func(t *testing.T) {
		terminaltest.BuzzerConformance(t, func(*testing.T) terminaltest.BuzzerUnderTest {
			b := &terminaltest.Buzzer{}
			beeps := func() int {
				n := 0
				for _, p := range b.Played() {
					n += len(p)
				}
				return n
			}
			return terminaltest.BuzzerUnderTest{Buzzer: b, Beeps: beeps}
		})
	})
	t.Run("buzzer-gpioio", func(t *testing.T) {
		terminaltest.BuzzerConformance(t, func(t *testing.T) terminaltest.BuzzerUnderTest {
			clk := gpiosim.NewClock()
			p := recording("BUZZER", clk)
			b, err := gpioio.NewBuzzer(p, false, clk)
			if err != nil {
				t.Fatal(err)
			}
			return terminaltest.BuzzerUnderTest{Buzzer: b, Beeps: func() int { return highs(p) }}
		})
	})
	t.Run("tamper-fake", func(t *testing.T) {
		terminaltest.TamperConformance(t, func(*testing.T) terminaltest.CaseUnderTest {
			s := &terminaltest.Tamper{}
			open := func(o bool) {
				if o {
					s.Open()
				} else {
					s.Close()
				}
			}
			return terminaltest.CaseUnderTest{Switch: s, Open: open}
		})
	})
	t.Run("tamper-gpioio", func(t *testing.T) {
		terminaltest.TamperConformance(t, func(t *testing.T) terminaltest.CaseUnderTest {
			in := gpiosim.NewInput("TAMPER", 16, true, nil)
			s, err := gpioio.NewTamper(in, gpioio.InputOpts{ActiveHigh: true, Pull: gpio.PullUp, Poll: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error)
			go func() { done <- s.Run(ctx) }()
			t.Cleanup(func() { cancel(); <-done })
			open := func(o bool) {
				in.Set(o)
				deadline := time.Now().Add(5 * time.Second)
				for s.State().Open != o && time.Now().Before(deadline) {
					time.Sleep(100 * time.Microsecond)
				}
			}
			return terminaltest.CaseUnderTest{Switch: s, Open: open}
		})
	})
}
