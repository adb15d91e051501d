package barcode

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLocateUnderStrongNoise reads matrix symbols under the third generator's strong sensor
// noise (class noise, tuning seeds: QR seed 3, 2.6-px modules at 37 % contrast under noise
// of σ 14 levels, cut to 256 px; DataMatrix seed 2, 2.7-px modules at 34 % under σ 19, cut
// to 192 px). Every cell of such a frame is busier than a quarter of the busiest, so before
// the locator's noise floor (noiseFloorGain) the whole crop joined one candidate, too noisy
// to read: neither read. Each must now read its text.
func TestLocateUnderStrongNoise(t *testing.T) {
	readCropDir(t, filepath.Join("testdata", "gen3-noise"))
}

// readCropDir decodes every PNG of dir (every format enabled, ITF held to 14 digits) and
// requires the text of the .txt beside it.
func readCropDir(t *testing.T, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.png"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no frames in %s: %v", dir, err)
	}
	d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}})
	for _, fn := range files {
		img, want := loadCrop(t, fn)
		r, err := d.Decode(img)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(fn), err)
			continue
		}
		if r.Text != want {
			t.Errorf("%s: read %q, want %q", filepath.Base(fn), r.Text, want)
		}
	}
}

// loadCrop reads the PNG fn and the text of the .txt beside it.
func loadCrop(t testing.TB, fn string) (image.Image, string) {
	t.Helper()
	data, err := os.ReadFile(fn)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", fn, err)
	}
	want, err := os.ReadFile(strings.TrimSuffix(fn, ".png") + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	return img, strings.TrimSpace(string(want))
}

// TestLocateCloseUpIsNotNoise reads a QR symbol filling the frame (the third generator's
// tuning frame light-8, cut at 0.9 of the candidate's half side, so without its quiet
// zone, and magnified 3×): its quietest cells are the symbol's own, so the noise floor
// (1.7× the quieter cells' energy) would drop most of them; the floor applies only when
// the quiet cells are white noise (quietWhite), which these are not.
func TestLocateCloseUpIsNotNoise(t *testing.T) {
	readCropDir(t, filepath.Join("testdata", "gen3-closeup"))
}
