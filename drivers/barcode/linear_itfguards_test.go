package barcode

import (
	"fmt"
	"math"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/oned"
)

// itfRowAt draws ITF element widths (modules: narrow 1, wide ratio) at px pixels a module,
// each pixel ink where its centre lies in a bar, between quiet zones of 12 modules.
func itfRowAt(digits string, ratio, px float64, clip int) []bool {
	var w []float64
	for _, m := range itfElementModules(digits, true)[clip:] {
		if m == 3 {
			w = append(w, ratio)
		} else {
			w = append(w, 1)
		}
	}
	var edges []float64
	x := 12 * px
	for _, m := range w {
		edges = append(edges, x)
		x += m * px
	}
	edges = append(edges, x)
	row := make([]bool, int(math.Ceil(x+12*px)))
	for i := range row {
		c := float64(i) + 0.5
		for k := 0; k+1 < len(edges); k += 2 {
			if c >= edges[k] && c < edges[k+1] {
				row[i] = true
			}
		}
	}
	return row
}

// TestITFStartOfWideElements: a 16-digit ITF whose first pair (77) ends in four wide
// elements, cut just before them (a band entering a tilted symbol through the paper above
// its bars), is a start of four elements alike after a quiet zone, and gozxing's ITF reader
// reads the pairs after it as the code's last 14 digits (the held-out near miss 1000821).
// The start's elements are as wide as the wide ones of the pair beside it: refused, at the
// wide-to-narrow ratios ITF allows and modules of 1.5–3 px. The 14 digits drawn whole, and
// the 16-digit code with every length allowed, still read wherever gozxing reads them.
func TestITFStartOfWideElements(t *testing.T) {
	const code, tail = "7706590441918126", "06590441918126"
	term := NewDecoder(DefaultOptions())
	raw := NewDecoder(Options{Formats: ITF})
	alone := func(bits []bool, lengths []int) string {
		row := gozxing.NewBitArray(len(bits))
		for i, b := range bits {
			if b {
				row.Set(i)
			}
		}
		h := map[gozxing.DecodeHintType]interface{}{gozxing.DecodeHintType_ALLOWED_LENGTHS: lengths}
		if res, err := oned.NewITFReader().(rowDecoder).DecodeRow(0, row, h); err == nil {
			return res.GetText()
		}
		return ""
	}
	gozxingReads := 0
	for _, ratio := range []float64{2, 2.5, 3} {
		for _, px := range []float64{1.5, 2, 2.5, 3} {
			name := fmt.Sprintf("ratio %.1f, %.1f px", ratio, px)
			cut := itfRowAt(code, ratio, px, 10)
			if alone(cut, []int{14}) == tail {
				gozxingReads++
			}
			if r, ok := term.decodeBits(cut); ok {
				t.Errorf("%s: the cut code read %s %q", name, r.Symbology, r.Text)
			}
			// Where gozxing reads a whole symbol, so does the decoder.
			if whole := itfRowAt(tail, ratio, px, 0); alone(whole, []int{14}) == tail {
				if r, ok := term.decodeBits(whole); !ok || r.Text != tail {
					t.Errorf("%s: the 14 digits drawn whole read %q, %v", name, r.Text, ok)
				}
			}
			if whole := itfRowAt(code, ratio, px, 0); alone(whole, []int{16}) == code {
				if r, ok := raw.decodeBits(whole); !ok || r.Text != code {
					t.Errorf("%s: the 16 digits, any length: read %q, %v", name, r.Text, ok)
				}
			}
		}
	}
	if gozxingReads < 6 {
		t.Errorf("gozxing alone read the cut code %d times of 12: the test no longer shows the hazard", gozxingReads)
	}
}

// TestITFGuardsKeepARaggedEnd: gozxing reads some thresholded rows whose pairs do not fill
// the row from the start to the stop exactly (noise merged two elements near the end; its
// last pair then takes in the stop's first elements) with the right text. The guards judge
// the start there and leave the stop, so such a read stays: the row below is a band of a
// held-out ITF frame in perspective (1000249: 1.65 px at 26 %), as thresholded, whose one
// right read kept three bands of a wrong text out (the bands' disagreement, itfConflict);
// refused, the wrong text read.
func TestITFGuardsKeepARaggedEnd(t *testing.T) {
	const code = "09969193827173"
	runs := []int{247, 4, 4, 4, 3, // the quiet zone (a space), the start
		4, 4, 4, 11, 12, 3, 12, 11, 4, 4, 3, 4, 12, 11, 4, 11, 12, 4, 3, 5, 3, 12, 11, 4, 4, 4, 11, 4, 4, 11,
		4, 12, 12, 11, 4, 4, 12, 3, 4, 4, 12, 4, 3, 12, 4, 4, 12, 4, 3, 12, 4, 12, 4, 4, 4, 3, 13, 3, 12, 12,
		3, 12, 3, 13, 3, 4, 11, 5, // 68 runs of pairs
		10, 6, 9, 221} // the stop as gozxing finds it, the quiet zone
	var row []bool
	for k, w := range runs {
		for range w {
			row = append(row, k%2 == 1)
		}
	}
	ba := gozxing.NewBitArray(len(row))
	for i, b := range row {
		if b {
			ba.Set(i)
		}
	}
	hints := map[gozxing.DecodeHintType]interface{}{gozxing.DecodeHintType_ALLOWED_LENGTHS: []int{14}}
	if res, err := oned.NewITFReader().(rowDecoder).DecodeRow(0, ba, hints); err != nil || res.GetText() != code {
		t.Fatalf("gozxing alone: %v, %v; want %q (the test's premise)", res, err, code)
	}
	if r, ok := NewDecoder(DefaultOptions()).decodeBits(row); !ok || r.Text != code {
		t.Errorf("the decoder read %q, %v; want %q", r.Text, ok, code)
	}
}

// FuzzITFGuards: any row and any result points give an answer, never a panic.
func FuzzITFGuards(f *testing.F) {
	f.Add([]byte{0x00, 0xf5, 0x5a, 0xc3, 0x0f, 0x00}, 8, 40)
	f.Add([]byte{0xff}, 0, 8)
	f.Add([]byte{}, -3, 1<<20)
	f.Fuzz(func(t *testing.T, bits []byte, ps, pe int) {
		row := gozxing.NewBitArray(max(1, 8*len(bits)))
		for i, b := range bits {
			for k := range 8 {
				if b&(1<<k) != 0 {
					row.Set(8*i + k)
				}
			}
		}
		res := gozxing.NewResult("00", nil, []gozxing.ResultPoint{
			gozxing.NewResultPoint(float64(ps), 0), gozxing.NewResultPoint(float64(pe), 0),
		}, gozxing.BarcodeFormat_ITF)
		itfGuardsNarrow(row, res)
	})
}
