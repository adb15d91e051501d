package display_test

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"periph.io/x/conn/v3/display/displaytest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"

	lcd "github.com/packterm/pos/drivers/display"
)

var (
	benchPins = flag.String("lcd.pins", "", "bench run: RS,E,D4,D5,D6,D7[,BL] GPIO names (e.g. GPIO25,GPIO24,GPIO23,GPIO22,GPIO27,GPIO17,GPIO4) of a real panel; runs the conformance test on it, interactively")
	benchGeo  = flag.String("lcd.geometry", "16x2", "bench run: panel geometry, 16x2 or 20x4")
)

// conform runs periph's TextDisplay conformance test plus the terminal's own checks
// (French text, long text, both lines) on dev.
func conform(t *testing.T, dev *lcd.Dev, interactive bool) {
	for _, err := range displaytest.TestTextDisplay(dev, interactive) {
		t.Error(err)
	}
	if err := dev.Show("PAYÉ : 1 250,00 €", "ÇA N’EST PAS GAGNÉ"); err != nil {
		t.Error(err)
	}
	if err := dev.Clear(); err != nil {
		t.Error(err)
	}
	long := strings.Repeat("0123456789", dev.Rows()*dev.Cols()/10+1)
	if n, err := dev.WriteString(long); err != nil || n != len(long) {
		t.Errorf("long text: n=%d err=%v", n, err)
	}
}

// TestConformance runs the conformance test on the emulated panels (CI) and, with
// -lcd.pins, on a real panel wired to this board (a technician's bench).
func TestConformance(t *testing.T) {
	if *benchPins != "" {
		t.Run("bench", func(t *testing.T) { conform(t, openBench(t), true) })
		return
	}
	for _, geo := range geometries {
		t.Run(name(geo), func(t *testing.T) {
			r := newRig(t, geo, nil)
			conform(t, r.dev, false)
			r.clean(t)
			// The last thing periph's test writes is a long text over a cleared screen
			// after "Set dev on"; ours ends with the long text wrapping on every row.
			for i, line := range r.emu.Lines() {
				if len(line) != geo.Cols || strings.Trim(line, "0123456789") != "" {
					t.Errorf("row %d after the long text = %q", i, line)
				}
			}
			if !r.emu.State().DisplayOn {
				t.Error("display left off")
			}
		})
	}
}

func openBench(t *testing.T) *lcd.Dev {
	if _, err := host.Init(); err != nil {
		t.Fatal(err)
	}
	names := strings.Split(*benchPins, ",")
	if len(names) != 6 && len(names) != 7 {
		t.Fatalf("-lcd.pins: want 6 or 7 names, got %d", len(names))
	}
	var pins [7]gpio.PinOut
	for i, n := range names {
		p := gpioreg.ByName(n)
		if p == nil {
			t.Fatalf("-lcd.pins: no GPIO named %q on this machine", n)
		}
		pins[i] = p
	}
	var geo lcd.Geometry
	if _, err := fmt.Sscanf(*benchGeo, "%dx%d", &geo.Cols, &geo.Rows); err != nil {
		t.Fatalf("-lcd.geometry: %v", err)
	}
	dev, err := lcd.New(lcd.Pins{RS: pins[0], E: pins[1], D4: pins[2], D5: pins[3], D6: pins[4], D7: pins[5], Backlight: pins[6]}, lcd.Opts{Geometry: geo})
	if err != nil {
		t.Fatal(err)
	}
	return dev
}
