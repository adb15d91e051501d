package barcode

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Interoperability with independent implementations: zbarimg (zbar-tools) and dmtxread
// (dmtx-utils) must read what we render; we must read what zint renders. Each test skips,
// naming the Debian package, only when its tool is not installed.

func writeRendered(t *testing.T, dir string, f Format, text string, opt RenderOptions) string {
	t.Helper()
	img, err := Render(f, text, opt)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, f.String()+".png")
	fh, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if err := WritePNG(fh, img); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestZbarimgReadsOurCodes(t *testing.T) {
	needTool(t, "zbarimg", "zbar-tools")
	dir := t.TempDir()
	for _, s := range samples[:3] {
		for _, opt := range []RenderOptions{{}, {Module: 2}} {
			p := writeRendered(t, dir, s.f, s.text, opt)
			got := zbarScan(t, s.f, []string{p})[filepath.Clean(p)]
			if len(got) != 1 || got[0] != s.text {
				t.Errorf("%v (module %d): zbarimg read %q, want %q", s.f, opt.Module, got, s.text)
			}
		}
	}
}

func TestDmtxreadReadsOurDataMatrix(t *testing.T) {
	bin := needTool(t, "dmtxread", "dmtx-utils")
	dir := t.TempDir()
	for _, opt := range []RenderOptions{{}, {Module: 4}} {
		p := writeRendered(t, dir, DataMatrix, samples[3].text, opt)
		out, err := exec.Command(bin, "-m", "5000", p).Output()
		if err != nil {
			t.Fatalf("dmtxread: %v", err)
		}
		if got := strings.TrimSpace(string(out)); got != samples[3].text {
			t.Errorf("module %d: dmtxread read %q, want %q", opt.Module, got, samples[3].text)
		}
	}
}

func TestWeReadZint(t *testing.T) {
	skipUnderRace(t)
	bin := needTool(t, "zint", "zint")
	dir := t.TempDir()
	types := map[Format]string{Code128: "CODE128", ITF: "C25INTER", QRCode: "QRCODE", DataMatrix: "DATAMATRIX"}
	d := NewDecoder(Options{Formats: AllFormats})
	for _, s := range samples {
		for _, rot := range []string{"0", "90", "180", "270"} {
			for _, scale := range []string{"1", "3"} {
				p := filepath.Join(dir, s.f.String()+rot+"x"+scale+".png")
				args := []string{"-b", types[s.f], "-d", s.text, "--quietzones", "--scale=" + scale,
					"--rotate=" + rot, "-o", p}
				if s.f == DataMatrix {
					args = append(args, "--square")
				}
				if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
					t.Fatalf("zint %v: %v\n%s", args, err, out)
				}
				img := loadImage(t, p)
				r, err := d.Decode(img)
				if err != nil || r.Text != s.text || r.Format != s.f {
					t.Errorf("zint %v rotated %s scale %s: %+v %v", s.f, rot, scale, r, err)
				}
			}
		}
	}
}
