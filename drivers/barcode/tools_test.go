package barcode

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// needTool skips the test when an independent tool is absent (CI installs it: the Debian
// packages zbar-tools, dmtx-utils and zint).
func needTool(t testing.TB, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not installed (Debian package %s): interoperability not checked", name, pkg)
	}
	return p
}

// writePGM writes a grey image as binary PGM, which zbarimg and dmtxread read without
// compression cost.
func writePGM(path string, img *image.Gray) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "P5\n%d %d\n255\n", img.Rect.Dx(), img.Rect.Dy())
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		off := img.PixOffset(img.Rect.Min.X, y)
		b.Write(img.Pix[off : off+img.Rect.Dx()])
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// zbarConfig returns zbarimg options enabling only the symbology of f (its best shot:
// nothing else competes for the frame).
func zbarConfig(f Format) []string {
	sym := map[Format]string{Code128: "code128", ITF: "i25", QRCode: "qrcode"}[f]
	return []string{"-Sdisable", "-S" + sym + ".enable"}
}

type zbarXML struct {
	Sources []struct {
		Href    string `xml:"href,attr"`
		Symbols []struct {
			Type string `xml:"type,attr"`
			Data string `xml:"data"`
		} `xml:"index>symbol"`
	} `xml:"source"`
}

// zbarScan runs one zbarimg over the files and returns, per file, the decoded texts.
func zbarScan(t testing.TB, f Format, files []string) map[string][]string {
	t.Helper()
	bin := needTool(t, "zbarimg", "zbar-tools")
	args := append([]string{"--xml", "-q"}, zbarConfig(f)...)
	cmd := exec.Command(bin, append(args, files...)...)
	out, err := cmd.Output()
	// zbarimg exits 4 when some image held no symbol: not a failure here.
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 4) {
		t.Fatalf("zbarimg: %v", err)
	}
	var x zbarXML
	if err := xml.Unmarshal(out, &x); err != nil {
		t.Fatalf("zbarimg xml: %v\n%s", err, out[:min(len(out), 500)])
	}
	res := map[string][]string{}
	for _, s := range x.Sources {
		for _, sym := range s.Symbols {
			res[filepath.Clean(s.Href)] = append(res[filepath.Clean(s.Href)], sym.Data)
		}
	}
	return res
}
