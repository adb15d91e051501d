package display_test

import (
	"strings"
	"testing"

	lcd "github.com/packterm/pos/drivers/display"
)

// BenchmarkShow20x4 rewrites every cell of a 20×4 panel (two screens that differ
// everywhere, with € and accents) through the driver and the pin-level emulator. Metrics:
// GPIO writes per update and the panel time per update on the injected clock (what the
// update costs on a real bus, at the driver's default timing).
func BenchmarkShow20x4(b *testing.B) {
	r := newRig(b, lcd.LCD20x4, nil)
	screens := [2][]string{
		{"GAGNÉ : 1 250,00 €", "TICKET 4 JEU 7", "DÉJÀ PAYÉ LE 01/12", "À 14:32 TERMINAL 9"},
		{"scannez un code....", "PERDU, DOMMAGE :-(", "RETOUR À L’ACCUEIL", "Caisse n°3 ouverte"},
	}
	for i := range screens {
		for j := range screens[i] {
			screens[i][j] += strings.Repeat("#_"[i:i+1], 20)
		}
	}
	benchShow(b, r, screens)
}

// BenchmarkShowAmount20x4 is the common case: one field (an amount) changes on an
// otherwise identical 20×4 screen, so only the changed cells are sent.
func BenchmarkShowAmount20x4(b *testing.B) {
	r := newRig(b, lcd.LCD20x4, nil)
	screens := [2][]string{
		{"TICKET GAGNANT", "GAGNÉ : 20,00 €", "OK : PAYER", "ANNULER : RETOUR"},
		{"TICKET GAGNANT", "GAGNÉ : 50,00 €", "OK : PAYER", "ANNULER : RETOUR"},
	}
	benchShow(b, r, screens)
}

// benchShow alternates two screens through the driver and reports the GPIO writes and
// the panel time (injected clock) per update.
func benchShow(b *testing.B, r *rig, screens [2][]string) {
	if err := r.dev.Show(screens[1]...); err != nil {
		b.Fatal(err)
	}
	w0, t0 := r.emu.Writes(), r.clk.Now()
	b.ResetTimer()
	for i := range b.N {
		if err := r.dev.Show(screens[i%2]...); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(r.emu.Writes()-w0)/float64(b.N), "gpio-writes/op")
	b.ReportMetric(float64(r.clk.Since(t0).Microseconds())/float64(b.N), "lcd-us/op")
	r.clean(b)
}
