package printer_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/escpos"
	"github.com/packterm/pos/drivers/printer/printeremul"
)

// emulatorFor is the emulated printer a profile describes.
func emulatorFor(p printer.Profile) *printeremul.Printer {
	return printeremul.New(printeremul.Config{Columns: p.Columns, NoProcessID: p.ProcessID == printer.Unsupported})
}

// One golden receipt per profile: columns, code page, cut and QR as the profile says, and the
// QR code readable whether the printer draws it (GS ( k) or the driver sends a raster image.
func TestProfileGoldenReceipts(t *testing.T) {
	for _, prof := range printer.Profiles() {
		t.Run(prof.Name, func(t *testing.T) {
			data, err := printer.Render(sample(), prof.Layout())
			if err != nil {
				t.Fatal(err)
			}
			if got := bytes.Contains(data, []byte{escpos.GS, '(', 'k'}); got != prof.NativeQR {
				t.Errorf("GS ( k sent: %v, profile native QR: %v", got, prof.NativeQR)
			}
			if !bytes.Contains(data, []byte{escpos.ESC, 't', byte(prof.CodePage)}) {
				t.Errorf("code page %d not selected", prof.CodePage)
			}
			emu := emulatorFor(prof)
			emu.Write(data)
			if prof.Cut == printer.CutNone {
				emu.TearOff()
			}
			rs := emu.Receipts()
			if len(rs) != 1 {
				t.Fatalf("%d receipts", len(rs))
			}
			rc := rs[0]
			wantCut := map[printer.Cut]string{printer.CutPartial: "partial", printer.CutFull: "full", printer.CutNone: "torn"}[prof.Cut]
			if rc.Cut != wantCut || len(rc.Drawer) != 1 {
				t.Errorf("cut %q (want %q), drawer %v", rc.Cut, wantCut, rc.Drawer)
			}
			if u := emu.Unknown(); len(u) != 0 {
				t.Errorf("unknown sequences: %v", u)
			}
			txt := rc.PlainText()
			for _, want := range []string{"10,00 €", "Émile", "[QR PK1-0042-BULLE]", "[Code128 0001234567890042]"} {
				if !strings.Contains(txt, want) {
					t.Errorf("receipt lacks %q:\n%s", want, txt)
				}
			}
			for _, line := range strings.Split(txt, "\n") {
				if n := len([]rune(line)); n > prof.Columns {
					t.Errorf("line of %d columns on a %d-column printer: %q", n, prof.Columns, line)
				}
			}
			checkGolden(t, "profile-"+prof.Name, rc)
		})
	}
}

func TestProfileByName(t *testing.T) {
	for _, name := range []string{"", "default", "TM-T88V", "tm-t88iv", "tm-t20-clone", "58mm-generic"} {
		p, err := printer.ProfileByName(name)
		if err != nil || p.Name == "" || p.Columns == 0 {
			t.Errorf("%q: %+v, %v", name, p, err)
		}
	}
	if _, err := printer.ProfileByName("tm-u220"); err == nil || !strings.Contains(err.Error(), "58mm-generic") || !strings.Contains(err.Error(), "legacy") {
		t.Errorf("unknown profile: %v", err)
	}
	// The driver takes its layout from the profile; Layout fields override it.
	p58, _ := printer.ProfileByName("58mm-generic")
	prn, err := printer.New(nil, printer.Config{Profile: p58, SpoolDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if l := prn.Layout(); l.Columns != 32 || l.CodePage != printer.WPC1252 || l.Cut != printer.CutNone || !l.RasterQR {
		t.Errorf("layout %+v", l)
	}
	if prn.Mode() != printer.ModeStatusPolling {
		t.Errorf("mode %v for a printer without GS ( H", prn.Mode())
	}
	prn, _ = printer.New(nil, printer.Config{Profile: p58, Layout: printer.Layout{Columns: 42}, SpoolDir: t.TempDir()})
	if prn.Layout().Columns != 42 {
		t.Errorf("columns override: %d", prn.Layout().Columns)
	}
}
