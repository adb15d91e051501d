package barcode

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/datamatrix"
	"github.com/makiuchi-d/gozxing/oned"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// Measurement of a frame set: ours (Decode restricted to the frame's symbology... no: the
// terminal's decoder with every format enabled), gozxing alone on the full frame
// (TRY_HARDER; 1D also on the frame turned by 90°) and zbarimg (only that symbology
// enabled; it reads no DataMatrix), per distortion class.

// heldOutBase is the first frame index of the reported (held-out) range; the decoder was
// tuned on indices below 1000 (FRAMES_BASE=0 selects that range again).
const heldOutBase = 100000

func frameBase() int {
	if v := os.Getenv("FRAMES_BASE"); v != "" {
		var n int
		if _, err := fmt.Sscan(v, &n); err == nil && n >= 0 {
			return n
		}
	}
	return heldOutBase
}

// compareOthers is false when COMPARE=0 asks for our decoder alone (a quick look while
// tuning: the comparison columns then read 0 and the per-class comparison is not asserted).
func compareOthers() bool { return os.Getenv("COMPARE") != "0" }

// sourceFrame is one frame of a set, ready for the three readers.
type sourceFrame struct {
	img   image.Image
	text  string
	class string
	file  []byte // the frame as a file for zbarimg (JPEG as made, else PGM)
	ext   string
	info  string // parameters, for failure logs
}

type frameOutcome struct {
	class             string
	ours, zxing, zbar bool
	oursWrong         bool // a read with another text: a false read
	dur               time.Duration
	info              string
	got, want         string
}

// measureSet makes frames idx of a source, reads each with our decoder (timed) and with
// gozxing alone, and, when withZbar and zbarimg is installed, with zbarimg.
func measureSet(t testing.TB, f Format, idx []int, src func(int) (sourceFrame, error), withZbar bool) []frameOutcome {
	out := make([]frameOutcome, len(idx))
	dir := t.TempDir()
	paths := make([]string, len(idx))
	texts := make([]string, len(idx))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}, Code128Digits: []int{12}})
			for k := w; k < len(idx); k += 2 {
				sf, err := src(idx[k])
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
				t0 := time.Now()
				r, err := d.Decode(sf.img)
				o := frameOutcome{class: sf.class, dur: time.Since(t0), info: sf.info}
				o.ours = err == nil && r.Text == sf.text && r.Format == f
				o.oursWrong = err == nil && !o.ours
				o.got, o.want = r.Symbology+r.Text, sf.text
				if compareOthers() {
					o.zxing = gozxingAlone(f, sf.img, sf.text)
				}
				if withZbar {
					paths[k] = filepath.Join(dir, fmt.Sprintf("%v-%06d.%s", f, idx[k], sf.ext))
					if err := os.WriteFile(paths[k], sf.file, 0o644); err != nil {
						mu.Lock()
						firstErr = err
						mu.Unlock()
						return
					}
				}
				texts[k] = sf.text
				out[k] = o
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		t.Fatal(firstErr)
	}
	if _, ok := lookTool("zbarimg"); withZbar && ok && f != DataMatrix && compareOthers() {
		zr := zbarScanParallel(t, f, paths)
		for k, p := range paths {
			got := zr[filepath.Clean(p)]
			out[k].zbar = len(got) > 0 && got[0] == texts[k]
		}
	}
	return out
}

// gozxingAlone reads img with gozxing's own reader for f on the whole frame, TRY_HARDER;
// a linear code also on the frame turned by 90° (gozxing's 1D readers scan rows).
func gozxingAlone(f Format, img image.Image, text string) bool {
	hints := map[gozxing.DecodeHintType]interface{}{gozxing.DecodeHintType_TRY_HARDER: true}
	if f == ITF {
		hints[gozxing.DecodeHintType_ALLOWED_LENGTHS] = []int{len(text)}
	}
	var rd gozxing.Reader
	switch f {
	case Code128:
		rd = oned.NewCode128Reader()
	case ITF:
		rd = oned.NewITFReader()
	case QRCode:
		rd = qrcode.NewQRCodeReader()
	default:
		rd = datamatrix.NewDataMatrixReader()
	}
	try := func(im image.Image) bool {
		bmp, err := gozxing.NewBinaryBitmapFromImage(im)
		if err != nil {
			return false
		}
		r, err := rd.Decode(bmp, hints)
		return err == nil && r.GetText() == text
	}
	if try(img) {
		return true
	}
	return f&OneD != 0 && try(rotate90(img))
}

// rotate90 returns the luminance of img turned by 90°.
func rotate90(img image.Image) *image.Gray {
	g := toGray(img)
	out := image.NewGray(image.Rect(0, 0, g.h, g.w))
	for y := range g.h {
		for x := range g.w {
			out.Pix[x*out.Stride+(g.h-1-y)] = g.pix[y*g.w+x]
		}
	}
	return out
}

// tally is a read count per reader.
type tally struct{ n, ours, zxing, zbar, wrong int }

func (a *tally) add(o frameOutcome) {
	a.n++
	a.ours += b2i(o.ours)
	a.zxing += b2i(o.zxing)
	a.zbar += b2i(o.zbar)
	a.wrong += b2i(o.oursWrong)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func pct(k, n int) string { return fmt.Sprintf("%.1f", 100*float64(k)/float64(max(n, 1))) }

// summarize logs a table of the outcomes per class (markdown rows, ready for docs/codes.md)
// and returns the totals.
func summarize(t testing.TB, set string, f Format, out []frameOutcome, withZbar bool) tally {
	by := map[string]*tally{}
	var total tally
	var durs []time.Duration
	for _, o := range out {
		if by[o.class] == nil {
			by[o.class] = &tally{}
		}
		by[o.class].add(o)
		total.add(o)
		durs = append(durs, o.dur)
	}
	classes := make([]string, 0, len(by))
	for c := range by {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	zb := func(a *tally) string {
		if !withZbar || f == DataMatrix {
			return "n/a"
		}
		return pct(a.zbar, a.n)
	}
	var b strings.Builder
	for _, c := range classes {
		a := by[c]
		fmt.Fprintf(&b, "| %s | %v | %s | %d | %s | %s | %s |\n", set, f, c, a.n, pct(a.ours, a.n), pct(a.zxing, a.n), zb(a))
	}
	slices.Sort(durs)
	fmt.Fprintf(&b, "| %s | %v | **all** | %d | **%s** | %s | %s |  (decode median %v, max %v, wrong reads %d)\n",
		set, f, total.n, pct(total.ours, total.n), pct(total.zxing, total.n), zb(&total),
		durs[len(durs)/2].Round(10*time.Microsecond), durs[len(durs)-1].Round(10*time.Microsecond), total.wrong)
	t.Logf("\n%s", b.String())
	for _, o := range out {
		if o.oursWrong {
			t.Logf("  %v WRONG READ %q (want %q) %s", f, o.got, o.want, o.info)
		}
		if !o.ours && (o.zxing || o.zbar || os.Getenv("FRAMES_VERBOSE") != "") {
			t.Logf("  %v missed where another read: zxing %v zbar %v %s", f, o.zxing, o.zbar, o.info)
		}
	}
	return total
}

// camSource adapts the camera generator to measureSet.
func camSource(f Format) func(int) (sourceFrame, error) {
	return func(i int) (sourceFrame, error) {
		cf, text, err := camFrameAt(f, i)
		if err != nil {
			return sourceFrame{}, err
		}
		sf := sourceFrame{img: cf.img, text: text, class: cf.p.Class, info: fmt.Sprintf("frame %d %+v", i, cf.p)}
		if cf.jpeg != nil {
			sf.file, sf.ext = cf.jpeg, "jpg"
		} else {
			sf.file, sf.ext = pgmBytes(camGray(cf.img)), "pgm"
		}
		return sf, nil
	}
}

func pgmBytes(g *image.Gray) []byte {
	b := fmt.Appendf(nil, "P5\n%d %d\n255\n", g.Rect.Dx(), g.Rect.Dy())
	for y := g.Rect.Min.Y; y < g.Rect.Max.Y; y++ {
		off := g.PixOffset(g.Rect.Min.X, y)
		b = append(b, g.Pix[off:off+g.Rect.Dx()]...)
	}
	return b
}

// deskSource adapts the first generator (frames_test.go) to measureSet; its frames have one
// class each ("desk").
func deskSource(f Format) func(int) (sourceFrame, error) {
	return func(i int) (sourceFrame, error) {
		img, text, p := deskFrameAt(f, i)
		return sourceFrame{img: img, text: text, class: "desk", file: pgmBytes(img), ext: "pgm",
			info: fmt.Sprintf("frame %d %+v", i, p)}, nil
	}
}

func indices(base, n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = base + i
	}
	return idx
}
