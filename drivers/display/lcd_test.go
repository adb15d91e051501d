package display_test

import (
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/display"
	"periph.io/x/conn/v3/gpio"

	lcd "github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/drivers/display/hd44780emul"
	"github.com/packterm/pos/drivers/gpiosim"
)

// rig is the real driver wired to an emulated panel on virtual time.
type rig struct {
	dev *lcd.Dev
	emu *hd44780emul.Device
	clk *gpiosim.Clock
}

// names gives the emulator the names of the driver's glyphs, so screens read "{€}".
func names() map[[8]byte]string {
	m := map[[8]byte]string{}
	for r, g := range lcd.DefaultFont() {
		m[g] = string(r)
	}
	return m
}

func newRig(t testing.TB, geo lcd.Geometry, tune func(*lcd.Timing)) *rig {
	t.Helper()
	return newRigRW(t, geo, tune, false)
}

// newRigRW is newRig with R/W wired to the emulator when rw is set.
func newRigRW(t testing.TB, geo lcd.Geometry, tune func(*lcd.Timing), rw bool) *rig {
	t.Helper()
	clk := gpiosim.NewClock()
	emu, err := hd44780emul.New(geo.Cols, geo.Rows, clk)
	if err != nil {
		t.Fatal(err)
	}
	emu.Names = names()
	tm := lcd.DefaultTiming()
	if tune != nil {
		tune(&tm)
	}
	pins := lcd.Pins{RS: emu.RS, E: emu.E, D4: emu.D4, D5: emu.D5, D6: emu.D6, D7: emu.D7, Backlight: emu.BL}
	if rw {
		pins.RW = emu.WireRW()
	}
	dev, err := lcd.New(pins, lcd.Opts{Geometry: geo, Clock: clk, Timing: tm})
	if err != nil {
		t.Fatal(err)
	}
	return &rig{dev: dev, emu: emu, clk: clk}
}

// clean fails the test if the emulator saw protocol errors.
func (r *rig) clean(t testing.TB) {
	t.Helper()
	for _, err := range r.emu.Errors() {
		t.Error(err)
	}
}

func (r *rig) expect(t testing.TB, want ...string) {
	t.Helper()
	got := r.emu.Lines()
	for i := range got {
		w := ""
		if i < len(want) {
			w = want[i]
		}
		if strings.TrimRight(got[i], " ") != w {
			t.Errorf("row %d = %q, want %q\nscreen:\n%s", i, got[i], w, r.emu.Text())
		}
	}
}

var geometries = []lcd.Geometry{lcd.LCD16x2, lcd.LCD20x4}

func name(g lcd.Geometry) string { return map[int]string{16: "16x2", 20: "20x4"}[g.Cols] }

func TestInit(t *testing.T) {
	for _, geo := range geometries {
		t.Run(name(geo), func(t *testing.T) {
			start := gpiosim.NewClock().Now()
			r := newRig(t, geo, nil)
			r.clean(t)
			s := r.emu.State()
			if !s.Ready || !s.DisplayOn || s.Cursor || s.Blink || !s.TwoLine || s.Font5x10 || !s.Increment || s.ShiftOnWrite {
				t.Errorf("state after init = %+v", s)
			}
			if s.CursorRow != 0 || s.CursorCol != 0 {
				t.Errorf("cursor at (%d,%d), want home", s.CursorRow, s.CursorCol)
			}
			// 50 ms power-on + 5 ms + 150 µs + handshake + clear: the waits were all kept.
			if el := r.clk.Since(start); el < 55*time.Millisecond || el > 60*time.Millisecond {
				t.Errorf("init took %v of virtual time", el)
			}
			r.expect(t)
			if v := r.emu.Visible(); len(v) != geo.Rows || len(v[0]) != geo.Cols {
				t.Errorf("visible = %q", v)
			}
		})
	}
}

func TestShowLineAddressing(t *testing.T) {
	for _, geo := range geometries {
		t.Run(name(geo), func(t *testing.T) {
			r := newRig(t, geo, nil)
			var lines []string
			for i := range geo.Rows {
				lines = append(lines, strings.Repeat(string(rune('A'+i)), geo.Cols-1)+string(rune('0'+i)))
			}
			if err := r.dev.Show(lines...); err != nil {
				t.Fatal(err)
			}
			r.expect(t, lines...)
			// A second screen changing one cell per row sends one address and one
			// character per row, nothing else.
			before := r.emu.State().Transfers
			lines2 := append([]string(nil), lines...)
			for i := range lines2 {
				lines2[i] = lines2[i][:3] + "x" + lines2[i][4:]
			}
			if err := r.dev.Show(lines2...); err != nil {
				t.Fatal(err)
			}
			r.expect(t, lines2...)
			if n := r.emu.State().Transfers - before; n != 2*geo.Rows {
				t.Errorf("diff update made %d transfers, want %d", n, 2*geo.Rows)
			}
			// Short and missing lines are blank-padded, long ones cut.
			if err := r.dev.Show("court", strings.Repeat("L", geo.Cols+5)); err != nil {
				t.Fatal(err)
			}
			r.expect(t, "court", strings.Repeat("L", geo.Cols))
			if err := r.dev.Show(make([]string, geo.Rows+1)...); err == nil {
				t.Error("Show accepted more lines than rows")
			}
			r.clean(t)
		})
	}
}

func TestFrenchText(t *testing.T) {
	r := newRig(t, lcd.LCD20x4, nil)
	if err := r.dev.Show("GAGNÉ : 20,00 €", "DÉJÀ PAYÉ LE 02/12", "ÇA N’EST PAS GAGNÉ", "¥ ä ö ü ° → ~ \\ ø"); err != nil {
		t.Fatal(err)
	}
	r.expect(t, "GAGN{É} : 20,00 {€}", "D{É}J{À} PAY{É} LE 02/12", "{Ç}A N'EST PAS GAGN{É}", "¥ ä ö ü ° → - / ?")
	r.clean(t)
	// Lower case and no-break spaces (French number formatting).
	if err := r.dev.Show("Payé\u202f: 5\u00a0€", "reçu à côté"); err != nil {
		t.Fatal(err)
	}
	r.expect(t, "Pay{é} : 5 {€}", "re{ç}u {à} c{ô}t{é}")
	r.clean(t)
}

func TestEuroGlyphBitmap(t *testing.T) {
	r := newRig(t, lcd.LCD16x2, nil)
	if _, err := r.dev.WriteString("€"); err != nil {
		t.Fatal(err)
	}
	slots := r.dev.Glyphs()
	if slots[0] != '€' {
		t.Fatalf("slots = %q", slots)
	}
	want := strings.Join([]string{"..###", ".#...", "####.", ".#...", "####.", ".#...", "..###", "....."}, "\n")
	if got := hd44780emul.GlyphArt(r.emu.Glyph(0)); got != want {
		t.Errorf("CGRAM 0 =\n%s\nwant\n%s", got, want)
	}
	r.expect(t, "{€}")
	r.clean(t)
}

func TestGlyphEvictionPerScreen(t *testing.T) {
	r := newRig(t, lcd.LCD20x4, nil)
	// Eight distinct glyphs: all fit.
	if err := r.dev.Show("€ É È Ê", "À Ç Ù Â"); err != nil {
		t.Fatal(err)
	}
	r.expect(t, "{€} {É} {È} {Ê}", "{À} {Ç} {Ù} {Â}")
	// A new screen keeping € and É and adding three: the three take slots of glyphs no
	// longer shown, € and É keep theirs (no CGRAM rewrite of a character on screen).
	before := r.dev.Glyphs()
	if err := r.dev.Show("É €", "Î Ô Û"); err != nil {
		t.Fatal(err)
	}
	r.expect(t, "{É} {€}", "{Î} {Ô} {Û}")
	after := r.dev.Glyphs()
	for i := range before {
		if (before[i] == '€' || before[i] == 'É') && after[i] != before[i] {
			t.Errorf("slot %d reloaded from %q to %q while shown", i, before[i], after[i])
		}
	}
	// Eleven distinct: € and the capitals first in priority get glyphs, the rest are
	// plain letters, and every glyph shown is the right one.
	if err := r.dev.Show("éèêàç €", "ÉÈÊÀÇ"); err != nil {
		t.Fatal(err)
	}
	r.expect(t, "{é}{è}eac {€}", "{É}{È}{Ê}{À}{Ç}")
	r.clean(t)
}

func TestGlyphEvictionOnWrite(t *testing.T) {
	r := newRig(t, lcd.LCD16x2, nil)
	if _, err := r.dev.WriteString("ÉÈÊÀÇÙÂÎ"); err != nil {
		t.Fatal(err)
	}
	// All 8 slots are on screen: a ninth glyph cannot be had.
	if _, err := r.dev.WriteString("Ô"); err != nil {
		t.Fatal(err)
	}
	r.expect(t, "{É}{È}{Ê}{À}{Ç}{Ù}{Â}{Î}O")
	// Overwriting the É frees its slot for the next glyph.
	if err := r.dev.MoveTo(0, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := r.dev.WriteString("€"); err != nil {
		t.Fatal(err)
	}
	r.expect(t, "{€}{È}{Ê}{À}{Ç}{Ù}{Â}{Î}O")
	// After a clear every slot is free again and reused for what is asked.
	if err := r.dev.Clear(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.dev.WriteString("ÛËÏéèêàç"); err != nil {
		t.Fatal(err)
	}
	r.expect(t, "{Û}{Ë}{Ï}{é}{è}{ê}{à}{ç}")
	r.clean(t)
}

func TestWriteWrapsRows(t *testing.T) {
	for _, geo := range geometries {
		t.Run(name(geo), func(t *testing.T) {
			r := newRig(t, geo, nil)
			text := ""
			var want []string
			for i := range geo.Rows {
				row := strings.Repeat(string(rune('a'+i)), geo.Cols)
				text += row
				want = append(want, row)
			}
			if _, err := r.dev.WriteString(text + "Z"); err != nil {
				t.Fatal(err)
			}
			want[0] = "Z" + want[0][1:]
			r.expect(t, want...)
			if err := r.dev.Clear(); err != nil {
				t.Fatal(err)
			}
			if _, err := r.dev.WriteString("un\ndeux\r2"); err != nil {
				t.Fatal(err)
			}
			r.expect(t, "un", "2eux")
			r.clean(t)
		})
	}
}

func TestCommands(t *testing.T) {
	r := newRig(t, lcd.LCD20x4, nil)
	d, e := r.dev, r.emu
	check := func(what string, ok bool) {
		t.Helper()
		if !ok {
			t.Errorf("%s: state %+v", what, e.State())
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(d.Cursor(display.CursorUnderline))
	check("underline", e.State().Cursor && !e.State().Blink)
	must(d.Cursor(display.CursorBlink))
	check("blink", !e.State().Cursor && e.State().Blink)
	must(d.Cursor(display.CursorUnderline, display.CursorBlock))
	check("both", e.State().Cursor && e.State().Blink)
	must(d.Cursor(display.CursorOff))
	check("off", !e.State().Cursor && !e.State().Blink)
	if err := d.Cursor(display.CursorBlink + 1); err == nil {
		t.Error("invalid cursor mode accepted")
	}

	must(d.MoveTo(3, 19))
	check("move to (3,19)", e.State().CursorRow == 3 && e.State().CursorCol == 19)
	must(d.Move(display.Up))
	check("up", e.State().CursorRow == 2 && e.State().CursorCol == 19)
	must(d.Move(display.Backward))
	check("backward", e.State().CursorRow == 2 && e.State().CursorCol == 18)
	must(d.Move(display.Forward))
	must(d.Move(display.Forward)) // 0x27 → 0x40: the controller wraps to line 2
	check("forward wraps", e.State().Address == 0x40)
	must(d.MoveTo(0, 0))
	if err := d.Move(display.Up); err == nil {
		t.Error("up from row 0 accepted")
	}
	if err := d.Move(display.Down + 1); err == nil {
		t.Error("invalid direction accepted")
	}
	for _, rc := range [][2]int{{-1, 0}, {0, -1}, {4, 0}, {0, 20}} {
		if err := d.MoveTo(rc[0], rc[1]); err == nil {
			t.Errorf("MoveTo%v accepted", rc)
		}
	}

	must(d.Display(false))
	check("display off", !e.State().DisplayOn)
	if v := e.Visible(); strings.TrimSpace(strings.Join(v, "")) != "" {
		t.Errorf("display off shows %q", v)
	}
	must(d.Display(true))

	must(d.SetBacklight(true))
	check("backlight", e.State().Backlight)
	must(d.Backlight(0))
	check("backlight off", !e.State().Backlight)

	// Auto scroll: the display shifts left once per character.
	must(d.Clear())
	must(d.AutoScroll(true))
	must2(t)(d.WriteString("abc"))
	check("auto scroll", e.State().ShiftOnWrite && e.State().Shift == 3)
	must(d.AutoScroll(false))
	must(d.Home())
	check("home undoes the shift", e.State().Shift == 0 && e.State().Address == 0)
	r.expect(t, "abc")
	// Show works whatever the shift: it addresses what is visible.
	must(d.AutoScroll(true))
	must2(t)(d.WriteString("xy"))
	must(d.Show("visible", "", "", "fin"))
	r.expect(t, "visible", "", "", "fin")
	check("show ends auto scroll", !e.State().ShiftOnWrite)

	must(d.Halt())
	check("halt", !e.State().DisplayOn && !e.State().Backlight)
	if d.String() != "HD44780 20x4" || d.MinRow() != 0 || d.MinCol() != 0 {
		t.Errorf("String %q MinRow %d MinCol %d", d.String(), d.MinRow(), d.MinCol())
	}
	r.clean(t)
}

func must2(t *testing.T) func(int, error) {
	return func(_ int, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestReinit(t *testing.T) {
	r := newRig(t, lcd.LCD16x2, nil)
	if err := r.dev.Show("avant", "ÉTÉ"); err != nil {
		t.Fatal(err)
	}
	if err := r.dev.Init(); err != nil {
		t.Fatal(err)
	}
	r.expect(t)
	if err := r.dev.Show("après", "ÉTÉ"); err != nil {
		t.Fatal(err)
	}
	r.expect(t, "apr{è}s", "{É}T{É}")
	r.clean(t)
	// After a power cycle of the panel alone, Init brings it back.
	r.emu.PowerCycle()
	r.clk.Sleep(time.Second)
	if err := r.dev.Init(); err != nil {
		t.Fatal(err)
	}
	if err := r.dev.Show("ok"); err != nil {
		t.Fatal(err)
	}
	r.expect(t, "ok")
	r.clean(t)
}

func TestFallback(t *testing.T) {
	for in, want := range map[rune]byte{
		'A': 'A', 'É': 'E', 'ç': 'c', 'ÿ': 'y', 'Å': 'A', '€': 'E', '’': '\'', '«': '"',
		'\\': '/', '~': '-', 'œ': 'o', 'ß': 's', '\u00a0': ' ', 'ø': '?', '中': '?', '¥': 0x5C, 'ü': 0xF5,
	} {
		if got := lcd.Fallback(in); got != want {
			t.Errorf("Fallback(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBadPins(t *testing.T) {
	clk := gpiosim.NewClock()
	emu, _ := hd44780emul.New(16, 2, clk)
	_, err := lcd.New(lcd.Pins{RS: emu.RS, E: emu.E, D4: emu.D4, D5: emu.D5, D6: emu.D6}, lcd.Opts{Geometry: lcd.LCD16x2, Clock: clk})
	if err == nil || !strings.Contains(err.Error(), "D7") {
		t.Errorf("missing D7: err = %v", err)
	}
	_, err = lcd.New(lcd.Pins{RS: emu.RS, E: gpio.INVALID, D4: emu.D4, D5: emu.D5, D6: emu.D6, D7: emu.D7}, lcd.Opts{Geometry: lcd.LCD16x2, Clock: clk})
	if err == nil || !strings.Contains(err.Error(), "write E") {
		t.Errorf("failing E pin: err = %v", err)
	}
	if _, err = lcd.New(lcd.Pins{}, lcd.Opts{Geometry: lcd.Geometry{Cols: 41, Rows: 2}}); err == nil {
		t.Error("41 columns accepted")
	}
}
