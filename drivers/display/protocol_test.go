package display_test

import (
	"strings"
	"testing"
	"time"

	lcd "github.com/packterm/pos/drivers/display"
)

// TestEmulatorCatchesSkippedWaits runs the real driver with one datasheet delay cut short
// and checks that the emulated panel reports it: the protection against a driver that
// "works on my bench" but skips waits.
func TestEmulatorCatchesSkippedWaits(t *testing.T) {
	for _, tc := range []struct {
		name string
		tune func(*lcd.Timing)
		want string
	}{
		{"power-on wait", func(t *lcd.Timing) { t.PowerOn = time.Millisecond }, "busy with power-on reset"},
		{"4.1 ms handshake wait", func(t *lcd.Timing) { t.InitStep1 = time.Millisecond }, "busy with handshake step 1"},
		{"100 µs handshake wait", func(t *lcd.Timing) { t.InitStep2 = 10 * time.Microsecond }, "busy with handshake step 2"},
		{"execution time", func(t *lcd.Timing) { t.Exec = 20 * time.Microsecond }, "too soon"},
		{"clear execution time", func(t *lcd.Timing) { t.ExecSlow = 200 * time.Microsecond }, "busy with clear display"},
		{"E pulse width", func(t *lcd.Timing) { t.EnableHigh = 100 * time.Nanosecond }, "shorter than PWEH"},
		{"E cycle", func(t *lcd.Timing) { t.EnableHigh, t.EnableCycle = 500*time.Nanosecond, 600*time.Nanosecond }, "shorter than tcycE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, lcd.LCD16x2, tc.tune)
			_ = r.dev.Show("PAYÉ", "20 €")
			errs := r.emu.Errors()
			if len(errs) == 0 {
				t.Fatalf("no protocol error reported")
			}
			if !strings.Contains(errs[0].Error(), tc.want) {
				t.Errorf("first error %q, want one containing %q", errs[0], tc.want)
			}
		})
	}
}

// TestDefaultTimingHasMargin checks the defaults against the datasheet minimums the
// emulator enforces, with at least 20 % margin on the waits.
func TestDefaultTimingHasMargin(t *testing.T) {
	d := lcd.DefaultTiming()
	for _, c := range []struct {
		name      string
		got, need time.Duration
	}{
		{"power-on", d.PowerOn, 40 * time.Millisecond},
		{"step 1", d.InitStep1, 4100 * time.Microsecond},
		{"step 2", d.InitStep2, 100 * time.Microsecond},
		{"exec", d.Exec, 37 * time.Microsecond},
		{"slow exec", d.ExecSlow, 1520 * time.Microsecond},
		{"PWEH", d.EnableHigh, 450 * time.Nanosecond},
		{"tcycE", d.EnableCycle, 1000 * time.Nanosecond},
		{"tDDR", d.DataDelay, 360 * time.Nanosecond},
	} {
		if c.got*10 < c.need*12 {
			t.Errorf("%s: %v is less than 120 %% of %v", c.name, c.got, c.need)
		}
	}
}
