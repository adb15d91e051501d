package barcode

import (
	"encoding/binary"
	"math"
	"testing"
	"time"
)

// FuzzDMSampler feeds random module images and corner sets to our DataMatrix sampler (and
// the whole crop to its detector): whatever the pixels, the corners (far outside the
// image, crossed, collapsed to a point, NaN, infinite) and the size, it returns a read
// with text or none, never panics, and finishes quickly.
//
// Input: width (1 byte), the symbol size (1 byte: an index into dmSizes up to 26×26), eight corner
// coordinates (float32 each, little-endian), then the pixels.
func FuzzDMSampler(f *testing.F) {
	img, _ := Render(DataMatrix, "00N0Y4G2VTPVXVR14D2PF2DBS", RenderOptions{Module: 3, QuietZone: 2})
	corners := func(c ...float32) []byte {
		b := make([]byte, 4*len(c))
		for i, v := range c {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		return b
	}
	w := img.Rect.Dx()
	// The render itself: 18×18 modules of 3 pixels inside a 6-pixel margin.
	seed := append([]byte{byte(w), 4}, corners(6, 6, 60, 6, 60, 60, 6, 60)...)
	f.Add(append(seed, img.Pix...))
	f.Add(append([]byte{16, 0}, append(corners(0, 0, 15, 0, 15, 15, 0, 15), make([]byte, 256)...)...))
	f.Add(append([]byte{16, 47}, append(corners(float32(math.NaN()), 0, float32(math.Inf(1)), 3, 1e30, -1e30, 0, 0), make([]byte, 300)...)...))
	f.Add(append([]byte{20, 9}, append(corners(5, 5, 5, 5, 5, 5, 5, 5), make([]byte, 400)...)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2+32 {
			return
		}
		width := int(data[0])
		// Sizes up to 26×26 modules (the sampler does not depend on the size; the large
		// ones would only slow the executions down).
		var small [][2]int
		for _, s := range dmSizes {
			if s[0]*s[1] <= 26*26 {
				small = append(small, s)
			}
		}
		sz := small[int(data[1])%len(small)]
		var c [8]float64
		for i := range c {
			c[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(data[2+4*i:])))
		}
		pix := data[34:]
		// Small images keep executions fast; the frame sets cover full-size ones.
		if width < 1 || len(pix) < width || len(pix) > 1<<14 {
			return
		}
		h := len(pix) / width
		g := &gray{w: width, h: h, pix: pix[:width*h]}
		d := NewDecoder(Options{Formats: DataMatrix})
		start := time.Now()
		tl, tr, br, bl := dmPt{c[0], c[1]}, dmPt{c[2], c[3]}, dmPt{c[4], c[5]}, dmPt{c[6], c[7]}
		fit := dmFit{rows: sz[0], cols: sz[1], corners: [4]dmPt{tl, tr, br, bl},
			h: newDMHomography(tl, tr, br, bl, sz[1], sz[0])}
		blur := dmBox3(dmFloats(g), g.w, g.h)
		var buf []float64
		_ = dmTimingScore(blur, g.w, g.h, &fit.h, fit.cols, fit.rows, &buf)
		for _, polish := range []bool{false, true} {
			if polish {
				fit = dmPolish(blur, g.w, g.h, fit)
			}
			for _, track := range []bool{true, false} {
				s := newDMSampler(g, blur, fit, track)
				for _, th := range dmThresholds {
					bm := s.bits(th)
					if bm == nil || bm.GetWidth() != sz[1] || bm.GetHeight() != sz[0] {
						t.Fatalf("matrix %v for size %v", bm, sz)
					}
					if r, ok := d.dmDecodeBits(bm); ok && (r.Text == "" || r.Format != DataMatrix) {
						t.Fatalf("empty or foreign read %+v", r)
					}
				}
			}
		}
		if r, ok := d.decodeDM(g); ok && (r.Text == "" || r.Format != DataMatrix || r.Symbology == "") {
			t.Fatalf("decodeDM: empty read %+v", r)
		}
		if el := time.Since(start); el > 20*time.Second {
			t.Fatalf("took %v", el)
		}
	})
}
