package barcode

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/datamatrix"
	dmencoder "github.com/makiuchi-d/gozxing/datamatrix/encoder"
)

// dmScene is a rendered DataMatrix symbol seen through a homography: the crop our detector
// gets from decodeMatrix, with the distortions that defeat gozxing's detector.
type dmScene struct {
	rot, tilt   float64 // in-plane rotation, degrees; perspective (0–40, about degrees)
	ink, paper  float64 // levels
	noise, blur float64 // σ of sensor noise (levels); box blur radius (pixels, 0 or 1)
	size        int     // crop side, pixels
	module      float64 // pixels per module at the centre
	shade       float64 // light falling off across the crop, 0–1
}

// draw returns the crop showing the module matrix m (true = dark) with a quiet zone of 4
// modules, centred, as scene s describes.
func (s dmScene) draw(m *gozxing.BitMatrix, rng *rand.Rand) *gray {
	cols, rows := m.GetWidth(), m.GetHeight()
	g := &gray{w: s.size, h: s.size, pix: make([]byte, s.size*s.size)}
	cr, sr := math.Cos(s.rot*math.Pi/180), math.Sin(s.rot*math.Pi/180)
	// Perspective: symbol (u, v) (modules, origin at the centre) maps to (u, v)/(1 + p·v)
	// before rotation and scaling: the symbol's top seen nearer than its bottom.
	p := s.tilt / 2000
	c := float64(s.size) / 2
	val := make([]float64, len(g.pix))
	for y := range s.size {
		for x := range s.size {
			dx, dy := (float64(x)+0.5-c)/s.module, (float64(y)+0.5-c)/s.module
			pu, pv := cr*dx+sr*dy, -sr*dx+cr*dy
			v := pv / (1 - p*pv)
			u := pu * (1 + p*v)
			mu, mv := u+float64(cols)/2, v+float64(rows)/2
			light := s.paper
			if mu >= 0 && mv >= 0 && int(mu) < cols && int(mv) < rows && m.Get(int(mu), int(mv)) {
				light = s.ink
			}
			light *= 1 - s.shade*float64(x)/float64(s.size)
			val[y*s.size+x] = light
		}
	}
	for y := range s.size {
		for x := range s.size {
			var sum float64
			n := 0
			r := int(s.blur)
			for yy := max(0, y-r); yy <= min(s.size-1, y+r); yy++ {
				for xx := max(0, x-r); xx <= min(s.size-1, x+r); xx++ {
					sum += val[yy*s.size+xx]
					n++
				}
			}
			v := sum/float64(n) + s.noise*rng.NormFloat64()
			g.pix[y*s.size+x] = byte(max(0, min(255, math.Round(v))))
		}
	}
	return g
}

// dmMatrix encodes text as a DataMatrix module matrix of the given shape (gozxing's writer).
func dmMatrix(t *testing.T, text string, shape dmencoder.SymbolShapeHint) *gozxing.BitMatrix {
	t.Helper()
	hints := map[gozxing.EncodeHintType]interface{}{gozxing.EncodeHintType_DATA_MATRIX_SHAPE: shape}
	m, err := datamatrix.NewDataMatrixWriter().Encode(text, gozxing.BarcodeFormat_DATA_MATRIX, 0, 0, hints)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDMReadsDistortedCrops: our detector and sampler alone (decodeDM, not gozxing's
// detector) read square and rectangular symbols at every rotation, tilted, faint,
// shaded, blurred and noisy, with 2.5 to 7 pixels per module.
func TestDMReadsDistortedCrops(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	texts := []string{"00N0Y4G2VTPVXVR14D2PF2DBS", "HJES6MKMS9RGQ3GM2KT3V592W", "0123456789", "DataMatrix ECC 200"}
	scenes := []dmScene{
		{rot: 0, ink: 20, paper: 230, size: 240, module: 7},
		{rot: 90, ink: 20, paper: 230, size: 240, module: 5, blur: 1, noise: 4},
		{rot: 183, ink: 60, paper: 200, size: 200, module: 4, tilt: 30, noise: 3},
		{rot: 271, ink: 170, paper: 205, size: 240, module: 6, noise: 4, blur: 1},  // low contrast
		{rot: 37, ink: 30, paper: 240, size: 240, module: 5, shade: 0.6, noise: 3}, // light falling off
		{rot: 128, ink: 40, paper: 220, size: 160, module: 3, blur: 1, noise: 2},
		{rot: 300, ink: 40, paper: 220, size: 120, module: 2.5, noise: 2},
	}
	d := NewDecoder(Options{Formats: DataMatrix})
	for _, shape := range []dmencoder.SymbolShapeHint{dmencoder.SymbolShapeHint_FORCE_SQUARE, dmencoder.SymbolShapeHint_FORCE_RECTANGLE} {
		for _, text := range texts {
			m := dmMatrix(t, text, shape)
			for si, sc := range scenes {
				if shape == dmencoder.SymbolShapeHint_FORCE_RECTANGLE && sc.module*float64(m.GetWidth()+8) > float64(sc.size) {
					sc.module = float64(sc.size) / float64(m.GetWidth()+10)
				}
				if float64(m.GetWidth()+8)*sc.module > float64(sc.size) || sc.module < 2.5 {
					continue
				}
				g := sc.draw(m, rng)
				r, ok := d.decodeDM(g)
				if !ok || r.Text != text || r.Format != DataMatrix || r.Symbology != "]d1" {
					t.Errorf("%dx%d %q scene %d %+v: read %+v %v", m.GetHeight(), m.GetWidth(), text, si, sc, r, ok)
				}
			}
		}
	}
}

// TestDMReadsNothingInNoiseAndClutter: crops of noise, of a regular grid of squares (a
// calendar) and of stripes give no read, and no outline fits a symbol's timing on noise.
func TestDMReadsNothingInNoiseAndClutter(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2))
	d := NewDecoder(Options{Formats: DataMatrix})
	for i := range 30 {
		g := &gray{w: 200, h: 200, pix: make([]byte, 200*200)}
		for j := range g.pix {
			x, y := j%200, j/200
			switch i % 3 {
			case 0: // noise
				g.pix[j] = byte(rng.IntN(256))
			case 1: // grid of squares
				if (x/8)%2 == 0 && (y/8)%2 == 0 && x > 30 && x < 170 && y > 30 && y < 170 {
					g.pix[j] = 30
				} else {
					g.pix[j] = 220
				}
			default: // stripes and a random block pattern
				g.pix[j] = 220
				if (x/5)%2 == 0 || (x > 60 && x < 140 && y > 60 && y < 140 && rng.IntN(2) == 0) {
					g.pix[j] = 40
				}
			}
		}
		if r, ok := d.decodeDM(g); ok {
			t.Errorf("image %d read as %+v", i, r)
		}
	}
}

// TestDMHomography maps the four module corners onto the outline's corners and the centre
// inside it.
func TestDMHomography(t *testing.T) {
	tl, tr, br, bl := dmPt{10, 12}, dmPt{110, 5}, dmPt{120, 118}, dmPt{3, 100}
	h := newDMHomography(tl, tr, br, bl, 18, 18)
	for _, c := range []struct {
		u, v float64
		want dmPt
	}{{0, 0, tl}, {18, 0, tr}, {18, 18, br}, {0, 18, bl}} {
		x, y := h.at(c.u, c.v)
		if math.Hypot(x-c.want.x, y-c.want.y) > 1e-6 {
			t.Errorf("(%v,%v) → (%.3f,%.3f), want %v", c.u, c.v, x, y, c.want)
		}
	}
	if x, y := h.at(9, 9); x < 20 || x > 100 || y < 20 || y > 100 {
		t.Errorf("centre → (%.1f,%.1f)", x, y)
	}
}

// TestDMTrack: the module boundaries of a timing pattern whose modules grow along it (paper
// curving away) are found, and their offsets from the nominal grid returned.
func TestDMTrack(t *testing.T) {
	const n = 18
	// Module j spans [e(j), e(j+1)) with e(t) = n·(t/n)^1.15: narrow first, wide last.
	e := func(t float64) float64 { return n * math.Pow(t/n, 1.15) }
	inv := func(x float64) float64 { return n * math.Pow(x/n, 1/1.15) }
	at := func(x float64) float64 {
		j := int(inv(x))
		if j%2 == 0 {
			return 20
		}
		return 220
	}
	off := trackTiming(n, at, true)
	if off == nil {
		t.Fatal("tracking lost the pattern")
	}
	for j := range n {
		want := (e(float64(j))+e(float64(j+1)))/2 - (float64(j) + 0.5)
		if math.Abs(off[j]-want) > 0.15 {
			t.Errorf("module %d: offset %.3f, want %.3f", j, off[j], want)
		}
	}
	// A flat profile holds no timing pattern.
	if off := trackTiming(n, func(float64) float64 { return 128 }, true); off != nil {
		t.Errorf("flat profile tracked: %v", off)
	}
}

// TestDMSizesCoverTheWriter: every symbol size gozxing's writer makes (texts of 1 to 300
// characters, square and rectangular) is among those we try.
func TestDMSizesCoverTheWriter(t *testing.T) {
	known := map[[2]int]bool{}
	for _, sz := range dmSizes {
		known[sz] = true
	}
	const alpha = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	rng := rand.New(rand.NewPCG(13, 3))
	for n := 1; n <= 300; n += 1 + n/10 {
		b := make([]byte, n)
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		for _, shape := range []dmencoder.SymbolShapeHint{dmencoder.SymbolShapeHint_FORCE_SQUARE, dmencoder.SymbolShapeHint_FORCE_RECTANGLE} {
			hints := map[gozxing.EncodeHintType]interface{}{gozxing.EncodeHintType_DATA_MATRIX_SHAPE: shape}
			m, err := datamatrix.NewDataMatrixWriter().Encode(string(b), gozxing.BarcodeFormat_DATA_MATRIX, 0, 0, hints)
			if err != nil {
				continue // too long for a rectangle
			}
			if sz := [2]int{m.GetHeight(), m.GetWidth()}; !known[sz] {
				t.Errorf("%d characters: size %v not tried", n, sz)
			}
		}
	}
}

// dmSquare is an axis-aligned square outline, clockwise as displayed.
func dmSquare(x0, y0, s float64) dmQuad {
	return dmQuad{{x0, y0}, {x0 + s, y0}, {x0 + s, y0 + s}, {x0, y0 + s}}
}

// TestDMQuadValid accepts plausible outlines and refuses degenerate ones.
func TestDMQuadValid(t *testing.T) {
	if !dmSquare(10, 10, 50).valid() {
		t.Error("square refused")
	}
	if (dmQuad{{0, 0}, {50, 0}, {50, 50}, {0, 50}}).valid() != true {
		t.Error("clockwise square refused")
	}
	for _, q := range []dmQuad{
		{{0, 0}, {0, 50}, {50, 50}, {50, 0}}, // counter-clockwise
		{{0, 0}, {5, 0}, {5, 5}, {0, 5}},     // too small
		{{0, 0}, {50, 0}, {0, 50}, {50, 50}}, // self-crossing
		{{0, 0}, {50, 0}, {math.NaN(), 50}, {0, 50}},
	} {
		if q.valid() {
			t.Errorf("%v accepted", q)
		}
	}
}

// TestDMCorrectionsGuard: a clean 10×10 symbol needs no correction; with one codeword
// damaged it still reads; with two (all Reed–Solomon can correct there) it is refused, as
// a random matrix close to some codeword would be.
func TestDMCorrectionsGuard(t *testing.T) {
	m := dmMatrix(t, "123", dmencoder.SymbolShapeHint_FORCE_SQUARE)
	if m.GetWidth() != 10 || m.GetHeight() != 10 {
		t.Fatalf("size %dx%d, want 10x10", m.GetWidth(), m.GetHeight())
	}
	d := NewDecoder(Options{Formats: DataMatrix})
	if r, ok := d.dmDecodeBits(m); !ok || r.Text != "123" {
		t.Fatalf("clean symbol: %+v %v", r, ok)
	}
	dr, err := d.dmDec.Decode(m)
	if err != nil {
		t.Fatal(err)
	}
	if n, ecc, ok := dmCorrections(m, dr.GetRawBytes()); !ok || n != 0 || ecc != 5 {
		t.Fatalf("clean symbol: %d corrections of %d, checked %v", n, ecc, ok)
	}
	// Damage whole codewords: flip the data modules one codeword at a time until the
	// decoder needs one, then two corrections.
	for _, k := range []int{1, 2} {
		bm, _ := gozxing.NewBitMatrix(10, 10)
		for y := range 10 {
			for x := range 10 {
				if m.Get(x, y) {
					bm.Set(x, y)
				}
			}
		}
		// Flip data modules one by one (undoing those the decoder cannot correct) until
		// k codewords need correcting.
		n := 0
		for i := 0; i < 64 && n < k; i++ {
			x, y := 1+(i*5)%8, 1+(i*3)%8
			bm.Flip(x, y)
			dr, err := d.dmDec.Decode(bm)
			if err != nil {
				bm.Flip(x, y)
				continue
			}
			n, _, _ = dmCorrections(bm, dr.GetRawBytes())
		}
		if n != k {
			t.Fatalf("could not damage %d codewords (%d)", k, n)
		}
		r, ok := d.dmDecodeBits(bm)
		if k == 1 && (!ok || r.Text != "123") {
			t.Errorf("one corrected codeword: refused (%+v)", r)
		}
		if k == 2 && ok {
			t.Errorf("two corrected codewords of a 10×10 accepted: %+v", r)
		}
	}
}

// BenchmarkDMCrop is our DataMatrix reader (decodeDM) on one 240-pixel crop per op: a
// tilted, noisy 18×18 symbol (read), and a crop of grid clutter (searched in vain, the
// cost a frame without a symbol pays per matrix candidate).
func BenchmarkDMCrop(b *testing.B) {
	rng := rand.New(rand.NewPCG(13, 4))
	hints := map[gozxing.EncodeHintType]interface{}{gozxing.EncodeHintType_DATA_MATRIX_SHAPE: dmencoder.SymbolShapeHint_FORCE_SQUARE}
	m, err := datamatrix.NewDataMatrixWriter().Encode("00N0Y4G2VTPVXVR14D2PF2DBS", gozxing.BarcodeFormat_DATA_MATRIX, 0, 0, hints)
	if err != nil {
		b.Fatal(err)
	}
	symbol := dmScene{rot: 33, tilt: 20, ink: 50, paper: 210, noise: 4, blur: 1, size: 240, module: 6}.draw(m, rng)
	clutter := &gray{w: 240, h: 240, pix: make([]byte, 240*240)}
	for j := range clutter.pix {
		x, y := j%240, j/240
		clutter.pix[j] = 220
		if (x/9)%2 == 0 && (y/9)%2 == 0 && rng.IntN(3) > 0 {
			clutter.pix[j] = 40
		}
	}
	d := NewDecoder(Options{Formats: DataMatrix})
	for _, c := range []struct {
		name string
		g    *gray
		read bool
	}{{"symbol", symbol, true}, {"clutter", clutter, false}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, ok := d.decodeDM(c.g); ok != c.read {
					b.Fatalf("read %v, want %v", ok, c.read)
				}
			}
		})
	}
}
