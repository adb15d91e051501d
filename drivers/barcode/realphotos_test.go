package barcode

import (
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Real photographs (issue 34): the camera and scanner photos of ZXing's blackbox test sets,
// as gozxing's module ships them in its testdata (it is a dependency, so `go test` has it in
// the module cache on any machine). They were taken by other people with other devices, of
// codes printed by other encoders: nothing of ours made them, and nothing was tuned on them
// (they were first read on the build of session 13, as the table in docs/codes.md, "Real
// photographs", says). ZXing's own tests ask these counts of ZXing (TRY_HARDER, at 0° and
// 180°; AbstractBlackBoxTestCase), kept here for the comparison (BARCODE_REAL=compare).

// realPhoto is one photograph and the text its code holds.
type realPhoto struct{ file, text string }

// realSet is one of ZXing's blackbox sets as gozxing ships it.
type realSet struct {
	name   string // ZXing's name of the set
	dir    string // under gozxing's module
	format Format
	photos []realPhoto
	// zxing is what ZXing's blackbox test asks of ZXing with TRY_HARDER, at 0° and 180° (its
	// sets in gozxing hold fewer photos than ZXing's: code128-1 2 of 6, itf-1 14 of 15).
	zxing string
	// need is the photos we read at every quarter turn, no wrong read (measured: every
	// photo but code128-2's 30.png, which ZXing does not read either).
	need int
}

// realSets lists the sets: texts as ZXing's and gozxing's tests give them.
func realSets() []realSet {
	four := func(first int, texts ...string) []realPhoto {
		var out []realPhoto
		for i, t := range texts {
			for k := range 4 {
				out = append(out, realPhoto{fmt.Sprintf("%02d.png", first+4*i+k), t})
			}
		}
		return out
	}
	numbered := func(texts map[int]string) []realPhoto {
		var out []realPhoto
		for i := 1; i <= 40; i++ {
			if t, ok := texts[i]; ok {
				out = append(out, realPhoto{fmt.Sprintf("%d.png", i), t})
			}
		}
		return out
	}
	wiki := "MEBKM:URL:http\\://en.wikipedia.org/wiki/Main_Page;;"
	blue := "http://google.com/gwt/n?u=bluenile.com"
	sean := "Sean Owen\r\nsrowen@google.com\r\n917-364-2918\r\nhttp://awesome-thoughts.com"
	qr1 := map[int]string{}
	for i := 1; i <= 20; i++ {
		switch {
		case i <= 12:
			qr1[i] = wiki
		case i <= 15:
			qr1[i] = blue
		default:
			qr1[i] = sean
		}
	}
	qr6 := map[int]string{15: "TEST"}
	for i := 1; i <= 14; i++ {
		qr6[i] = "1234567890"
	}
	mecard := "MECARD:N:Sean Owen;TEL:+12125658770;EMAIL:srowen@google.com;;"
	return []realSet{
		{"code128-1", "oned/testdata/code128", Code128,
			numbered(map[int]string{1: "168901", 2: "Code 128"}), "5 of 6", 2},
		{"code128-2", "oned/testdata/code128", Code128,
			four(1, "005-3379497200006", "15182881", "CNK8181G2C", "1PEF224A4", "FW727",
				"005-3354174500018", "31001171800000017989625355702636", "42094043",
				"30885909173823", "FGGQ6D1"), "39 of 40", 39},
		{"itf-1", "oned/testdata/itf", ITF, numbered(map[int]string{
			1: "30712345000010", 2: "00012345678905", 3: "0053611912", 5: "0829220875",
			6: "0829220874", 7: "0817605453", 8: "0829220874", 9: "0053611912", 10: "0053611912",
			13: "0829220875", 14: "0829220875", 15: "0829220875", 16: "0829220874", 17: "3018108390",
		}), "13 of 15", 14},
		{"qrcode-1", "qrcode/testdata/qrcode-1", QRCode, numbered(qr1), "17 of 20 (90°, 270°: 15)", 20},
		{"qrcode-6", "qrcode/testdata/qrcode-6", QRCode, numbered(qr6), "15 of 15 (90°, 270°: 14; 180°: 13)", 15},
		{"android-1", "qrcode/testdata", QRCode, []realPhoto{
			{"qrcode-1.jpg", "MECARD:N:Google 411,;TEL:18665881077;;"},
			{"qrcode-2.jpg", "UI office hours signup\r\nhttp://www.corp.google.com/sparrow/ui_office_hours/ \r\n"},
			{"qrcode-3.jpg", mecard}, {"qrcode-4.jpg", mecard},
		}, "a benchmark: no count", 4},
	}
}

// gozxingDir is gozxing's module directory: `go list -m` in this module, or "" with the
// reason when it cannot be found (no go command, as under qemu).
func gozxingDir() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/makiuchi-d/gozxing").Output()
	if err != nil {
		return "", fmt.Errorf("go list gozxing: %w", err)
	}
	dir := strings.TrimSpace(string(out))
	if _, err := os.Stat(filepath.Join(dir, "oned", "testdata", "code128")); err != nil {
		return "", fmt.Errorf("gozxing's testdata: %w", err)
	}
	return dir, nil
}

// realPhotoDir is gozxing's module directory, the test skipped when it cannot be found
// outside CI (a CI run on a clean clone has it: `go test` downloads the module).
func realPhotoDir(tb testing.TB) string {
	dir, err := gozxingDir()
	if err != nil {
		if os.Getenv("CI") != "" && !testing.Short() {
			tb.Fatalf("the real photographs are gozxing's testdata: %v", err)
		}
		tb.Skipf("the real photographs are gozxing's testdata: %v", err)
	}
	return dir
}

// turned returns img turned by q quarter turns (clockwise), q = 0 the image itself.
func turned(img image.Image, q int) image.Image {
	for range q {
		img = rotate90(img)
	}
	return img
}

// TestRealPhotos reads ZXing's blackbox photographs with every format and ITF of any length
// (`posctl code decode --raw`'s options), at each quarter turn: each set must read its
// floor at every turn, and nothing may read as another text. BARCODE_REAL=compare also
// reads each photograph with gozxing alone (TRY_HARDER, a linear code also turned) and
// zbarimg, and prints the three side by side (docs/codes.md, "Real photographs").
func TestRealPhotos(t *testing.T) {
	if testing.Short() || raceEnabled {
		// 14 s on 2 cores; the race detector slows the decoder tenfold. The run without
		// -race (scripts/test.sh, full_tests) reads them.
		t.Skip("the real photographs take seconds a turn: not in -short nor under -race")
	}
	dir := realPhotoDir(t)
	compare := os.Getenv("BARCODE_REAL") == "compare"
	d := NewDecoder(Options{Formats: AllFormats})
	for _, set := range realSets() {
		imgs := make([]image.Image, len(set.photos))
		for i, p := range set.photos {
			imgs[i] = loadImage(t, filepath.Join(dir, set.dir, p.file))
		}
		for q := range 4 {
			read, zx, zb := 0, 0, 0
			var misses []string
			var worst time.Duration
			for i, p := range set.photos {
				img := turned(imgs[i], q)
				start := time.Now()
				r, err := d.Decode(img)
				worst = max(worst, time.Since(start))
				switch {
				case err == nil && r.Text == p.text && r.Format == set.format:
					read++
				case err == nil:
					t.Errorf("%s %s at %d°: read %v %q, want %q", set.name, p.file, 90*q, r.Format, r.Text, p.text)
				default:
					misses = append(misses, p.file)
				}
				if compare {
					zx += b2i(gozxingAlone(set.format, img, p.text))
					zb += b2i(zbarReadsImage(t, img, set.format, p.text))
				}
			}
			line := fmt.Sprintf("%-10s %3d° ours %2d/%d (slowest %v)", set.name, 90*q, read, len(set.photos), worst.Round(time.Millisecond))
			if compare {
				line += fmt.Sprintf(" gozxing %d zbarimg %d (ZXing asks %s)", zx, zb, set.zxing)
			}
			t.Logf("%s; missed %v", line, misses)
			if read < set.need {
				t.Errorf("%s at %d°: read %d of %d, want ≥ %d (missed %v)", set.name, 90*q, read, len(set.photos), set.need, misses)
			}
		}
	}
}

// zbarReadsImage says whether zbarimg reads text of format f from img (false without zbarimg).
func zbarReadsImage(t *testing.T, img image.Image, f Format, text string) bool {
	if _, ok := lookTool("zbarimg"); !ok || f == DataMatrix {
		return false
	}
	p := filepath.Join(t.TempDir(), "photo.pgm")
	if err := os.WriteFile(p, pgmBytes(luma(img)), 0o644); err != nil {
		t.Fatal(err)
	}
	got := zbarScan(t, f, []string{p})[filepath.Clean(p)]
	return len(got) > 0 && got[0] == text
}

// luma is img's luminance as an image.Gray.
func luma(img image.Image) *image.Gray {
	g := toGray(img)
	return grayFromPix(g.pix, g.w, g.h)
}
