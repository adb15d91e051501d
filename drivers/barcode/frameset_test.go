package barcode

import (
	"fmt"
	"image"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// frameSeed seeds every desk frame: frame i of format f uses PCG(frameSeed, f<<32|i). The
// decoder was tuned on indices below 1000; the reported sets start at heldOutBase.
const frameSeed = 20261202

// frameCase is one generated frame and what it holds.
type frameCase struct {
	f      Format
	text   string
	params frameParams
	path   string // PGM copy for the independent tools, when written
}

// genFrames makes n frames of format f from the seed, decodes each with decode, and returns
// the cases, which ones decode read correctly, and the decode times. Work is spread over two
// goroutines; frames are written as PGM into dir when dir is not empty.
func genFrames(t testing.TB, f Format, n int, dir string, decode func(*frameCase, []byte, int, int) bool) ([]frameCase, []bool, []time.Duration) {
	cases := make([]frameCase, n)
	ok := make([]bool, n)
	times := make([]time.Duration, n)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 2 {
				rng := rand.New(rand.NewPCG(frameSeed, uint64(f)<<32|uint64(i)))
				text := codeText(rng, f)
				img, p := makeFrame(rng, f, text)
				c := frameCase{f: f, text: text, params: p}
				if dir != "" {
					c.path = filepath.Join(dir, fmt.Sprintf("%v-%04d.pgm", f, i))
					if err := writePGM(c.path, img); err != nil {
						errs <- err
						return
					}
				}
				t0 := time.Now()
				ok[i] = decode(&c, img.Pix, img.Rect.Dx(), img.Rect.Dy())
				times[i] = time.Since(t0)
				cases[i] = c
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	return cases, ok, times
}

func count(ok []bool) int {
	n := 0
	for _, b := range ok {
		if b {
			n++
		}
	}
	return n
}

// decodeDefault reads a frame as the terminal does: barcode.Decode, default formats.
func decodeDefault(c *frameCase, pix []byte, w, h int) bool {
	r, err := Decode(grayFromPix(pix, w, h))
	return err == nil && r.Text == c.text && r.Format == c.f && r.Symbology == c.f.Symbology()
}

// TestFramesSmoke is the quick version of the frame-set test, run in every mode (also -race
// and under qemu with -short): a few frames per kind must all but one read.
func TestFramesSmoke(t *testing.T) {
	n := 24
	if testing.Short() || raceEnabled { // the full-size stage runs 24 without -race
		n = 8
	}
	for _, f := range []Format{Code128, ITF, QRCode} {
		cases, ok, _ := genFrames(t, f, n, "", decodeDefault)
		if got := count(ok); got < n-1 {
			for i, c := range cases {
				if !ok[i] {
					t.Logf("%v frame %d unread: %+v", f, i, c.params)
				}
			}
			t.Errorf("%v: read %d of %d frames", f, got, n)
		}
	}
}

// frameSetSizeOr is the number of frames per kind of a full set: FRAMES when set, else n.
func frameSetSizeOr(n int) int {
	if v := os.Getenv("FRAMES"); v != "" {
		var k int
		if _, err := fmt.Sscan(v, &k); err == nil && k > 0 {
			return k
		}
	}
	return n
}

// TestClutterFramesReadNothing: frames of clutter alone (text blocks, lines, stripes of
// rectangles) must never yield a code: a false read would reach the terminal as a scan.
func TestClutterFramesReadNothing(t *testing.T) {
	n := 100
	switch {
	case raceEnabled: // every path of the decoder runs on clutter, on one goroutine: 3–4 s a frame under -race (the full-size stage runs 100)
		t.Skip("clutter frames skipped under -race")
	case testing.Short():
		n = 10
	}
	for i := range n {
		rng := rand.New(rand.NewPCG(frameSeed+2, uint64(i)))
		img, _ := makeFrame(rng, 0, "")
		if r, err := NewDecoder(Options{Formats: AllFormats}).Decode(img); err == nil {
			t.Errorf("clutter frame %d read as %+v", i, r)
		}
	}
}

// deskFrameAt makes frame i of format f of the first generator.
func deskFrameAt(f Format, i int) (*image.Gray, string, frameParams) {
	rng := rand.New(rand.NewPCG(frameSeed, uint64(f)<<32|uint64(i)))
	text := codeText(rng, f)
	img, p := makeFrame(rng, f, text)
	return img, text, p
}
