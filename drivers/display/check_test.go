package display_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/display"
	"periph.io/x/conn/v3/gpio"

	lcd "github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/drivers/display/hd44780emul"
	"github.com/packterm/pos/drivers/gpiosim"
)

// frenchScreens are two screens per geometry with € and accents (glyphs in CGRAM).
func frenchScreens(geo lcd.Geometry) [2][]string {
	s := [2][]string{
		{"PAYÉ : 1 250,00 €", "ÇA N’EST PAS GAGNÉ", "DÉJÀ PAYÉ LE 01/12", "À 14:32 ÉTÉ"},
		{"GAGNÉ : 20,00 €", "Œuvre à côté ; où ?", "scannez un code…", "Caisse n°3 ouverte"},
	}
	return [2][]string{s[0][:geo.Rows], s[1][:geo.Rows]}
}

// TestCheckReadsBack: with R/W wired, Check passes on a live panel after French screens,
// text written at the cursor and a shifted display, leaves the panel as it was (the next
// Show lands where it should), and the emulator sees no protocol error.
func TestCheckReadsBack(t *testing.T) {
	for _, geo := range geometries {
		t.Run(name(geo), func(t *testing.T) {
			r := newRigRW(t, geo, nil, true)
			d := r.dev
			if !d.CanCheck() {
				t.Fatal("CanCheck false with R/W wired")
			}
			if err := d.Check(); err != nil {
				t.Errorf("blank panel: %v", err)
			}
			screens := frenchScreens(geo)
			steps := []struct {
				name string
				do   func() error
			}{
				{"first screen", func() error { return d.Show(screens[0]...) }},
				{"second screen", func() error { return d.Show(screens[1]...) }},
				{"text at the cursor", func() error { _, err := d.WriteString("Été\nÀ bientôt"); return err }},
				{"cursor moved", func() error { return d.Move(display.Backward) }},
				{"auto scroll", func() error {
					if err := d.AutoScroll(true); err != nil {
						return err
					}
					_, err := d.WriteString("€uro élu")
					return err
				}},
			}
			for _, s := range steps {
				if err := s.do(); err != nil {
					t.Fatalf("%s: %v", s.name, err)
				}
				before := r.emu.State()
				if err := d.Check(); err != nil {
					t.Errorf("after %s: %v", s.name, err)
				}
				after := r.emu.State()
				if after.Address != before.Address || after.Shift != before.Shift || after.Reads <= before.Reads {
					t.Errorf("after %s: check left address %#02x shift %d (was %#02x, %d), %d reads",
						s.name, after.Address, after.Shift, before.Address, before.Shift, after.Reads-before.Reads)
				}
			}
			if err := d.AutoScroll(false); err != nil {
				t.Fatal(err)
			}
			if err := d.Show(screens[0]...); err != nil {
				t.Fatal(err)
			}
			for i, got := range r.emu.Screen() {
				if want := fit(screens[0][i], geo.Cols); got != want {
					t.Errorf("row %d after checks = %q, want %q", i, got, want)
				}
			}
			if err := d.Check(); err != nil {
				t.Error(err)
			}
			r.clean(t)
		})
	}
}

// fit is what a row shows of line on a panel of cols columns: cut or padded, ’ as '.
func fit(line string, cols int) string {
	rs := []rune(strings.ReplaceAll(line, "’", "'"))
	if len(rs) > cols {
		rs = rs[:cols]
	}
	return pad(string(rs), cols)
}

// TestCheckDeadPanel: a dead or unplugged panel (lines floating high) fails Check with
// ErrNotResponding within the bounded wait; plugged back and initialised, it passes.
func TestCheckDeadPanel(t *testing.T) {
	for _, geo := range geometries {
		t.Run(name(geo), func(t *testing.T) {
			r := newRigRW(t, geo, nil, true)
			if err := r.dev.Show(frenchScreens(geo)[0]...); err != nil {
				t.Fatal(err)
			}
			r.emu.SetDead(true)
			start := r.clk.Now()
			err := r.dev.Check()
			if !errors.Is(err, lcd.ErrNotResponding) || !strings.HasPrefix(err.Error(), "display: check: busy flag still set") {
				t.Fatalf("dead panel: err = %v", err)
			}
			if took, limit := r.clk.Since(start), 2*lcd.DefaultTiming().ExecSlow; took > limit {
				t.Errorf("dead panel noticed after %v, more than %v", took, limit)
			}
			r.emu.SetDead(false)
			if err := r.dev.Init(); err != nil {
				t.Fatal(err)
			}
			if err := r.dev.Show(frenchScreens(geo)[1]...); err != nil {
				t.Fatal(err)
			}
			if err := r.dev.Check(); err != nil {
				t.Errorf("panel plugged back: %v", err)
			}
			r.clean(t)
		})
	}
}

// TestCheckPowerGlitch: a panel reset by a power glitch (blank, 8-bit interface) fails
// Check with ErrNotResponding; Init and Show bring it back.
func TestCheckPowerGlitch(t *testing.T) {
	r := newRigRW(t, lcd.LCD20x4, nil, true)
	if err := r.dev.Show(frenchScreens(lcd.LCD20x4)[0]...); err != nil {
		t.Fatal(err)
	}
	r.emu.PowerCycle()
	r.clk.Sleep(50 * time.Millisecond)
	if err := r.dev.Check(); !errors.Is(err, lcd.ErrNotResponding) {
		t.Fatalf("reset panel: err = %v", err)
	}
	if err := r.dev.Init(); err != nil {
		t.Fatal(err)
	}
	r.emu.ClearErrors()
	if err := r.dev.Show(frenchScreens(lcd.LCD20x4)[0]...); err != nil {
		t.Fatal(err)
	}
	if err := r.dev.Check(); err != nil {
		t.Error(err)
	}
	r.clean(t)
}

// TestCheckCatchesWrongCell: one cell changed behind the driver's back (address counter
// put back) fails Check and names the cell.
func TestCheckCatchesWrongCell(t *testing.T) {
	r := newRigRW(t, lcd.LCD16x2, nil, true)
	if err := r.dev.Show("PAYÉ : 20,00 €", "MERCI"); err != nil {
		t.Fatal(err)
	}
	scribble(r, 0x42, 'X') // row 1, column 2: 'R' on screen
	err := r.dev.Check()
	if !errors.Is(err, lcd.ErrNotResponding) || !strings.Contains(err.Error(), "row 1 column 2 reads 0x58, 0x52 was written") {
		t.Errorf("err = %v", err)
	}
	r.clean(t)
}

// scribble writes code at DDRAM address a of the emulated panel behind the driver's back,
// with correct timing, then puts the address counter and the bus levels back as the
// driver left them, so that only the cell differs.
func scribble(r *rig, a, code byte) {
	pins := []*gpiosim.Pin{r.emu.RS, r.emu.E, r.emu.D4, r.emu.D5, r.emu.D6, r.emu.D7}
	var saved [6]gpio.Level
	for i, p := range pins {
		saved[i] = p.Read()
	}
	nibble := func(rs bool, n byte) {
		_ = r.emu.RS.Out(gpio.Level(rs))
		for i, p := range pins[2:] {
			_ = p.Out(gpio.Level(n&(1<<i) != 0))
		}
		_ = r.emu.E.Out(gpio.High)
		r.clk.Sleep(time.Microsecond)
		_ = r.emu.E.Out(gpio.Low)
		r.clk.Sleep(time.Microsecond)
	}
	send := func(rs bool, b byte) {
		nibble(rs, b>>4)
		nibble(rs, b&0xF)
		r.clk.Sleep(60 * time.Microsecond)
	}
	ac := r.emu.State().Address
	send(false, 0x80|a)
	send(true, code)
	send(false, 0x80|ac)
	for i, p := range pins {
		_ = p.Out(saved[i])
	}
}

// TestCheckWithoutRW: without R/W, nothing can be checked: Check returns nil, even on a
// dead panel, and touches no pin.
func TestCheckWithoutRW(t *testing.T) {
	r := newRig(t, lcd.LCD16x2, nil)
	if r.dev.CanCheck() || r.emu.RW != nil {
		t.Fatal("R/W wired")
	}
	r.emu.SetDead(true)
	w := r.emu.Writes()
	if err := r.dev.Check(); err != nil {
		t.Errorf("Check without R/W: %v", err)
	}
	if r.emu.Writes() != w {
		t.Error("Check without R/W wrote to the pins")
	}
}

// outOnly hides every method of a pin but gpio.PinOut's.
type outOnly struct{ gpio.PinOut }

func TestRWNeedsReadableDataPins(t *testing.T) {
	clk := gpiosim.NewClock()
	emu, _ := hd44780emul.New(16, 2, clk)
	_, err := lcd.New(lcd.Pins{RS: emu.RS, E: emu.E, D4: emu.D4, D5: emu.D5, D6: outOnly{emu.D6}, D7: emu.D7, RW: emu.WireRW()},
		lcd.Opts{Geometry: lcd.LCD16x2, Clock: clk})
	if err == nil || !strings.Contains(err.Error(), "pin D6 is not a gpio.PinIO") {
		t.Errorf("D6 output only with R/W wired: err = %v", err)
	}
	if _, err := lcd.New(lcd.Pins{RS: emu.RS, E: emu.E, D4: emu.D4, D5: emu.D5, D6: outOnly{emu.D6}, D7: emu.D7},
		lcd.Opts{Geometry: lcd.LCD16x2, Clock: clk}); err != nil {
		t.Errorf("D6 output only without R/W: %v", err)
	}
}

// TestEmulatorCatchesEarlySample: a read sampled before tDDR is reported by the emulator.
func TestEmulatorCatchesEarlySample(t *testing.T) {
	r := newRigRW(t, lcd.LCD16x2, func(tm *lcd.Timing) { tm.DataDelay = 100 * time.Nanosecond }, true)
	_ = r.dev.Check()
	errs := r.emu.Errors()
	if len(errs) == 0 || !strings.Contains(errs[0].Error(), "before the data delay tDDR") {
		t.Errorf("errors %v", errs)
	}
}

// BenchmarkCheck reads back a full 20×4 screen through the driver and the pin-level
// emulator. Metrics: GPIO writes per check and the panel time per check on the injected
// clock (what a check costs on a real bus at the driver's default timing).
func BenchmarkCheck(b *testing.B) {
	r := newRigRW(b, lcd.LCD20x4, nil, true)
	if err := r.dev.Show(frenchScreens(lcd.LCD20x4)[0]...); err != nil {
		b.Fatal(err)
	}
	w0, t0 := r.emu.Writes(), r.clk.Now()
	b.ResetTimer()
	for range b.N {
		if err := r.dev.Check(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(r.emu.Writes()-w0)/float64(b.N), "gpio-writes/op")
	b.ReportMetric(float64(r.clk.Since(t0).Microseconds())/float64(b.N), "lcd-us/op")
	r.clean(b)
}
