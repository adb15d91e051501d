package barcode

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/datamatrix"
	dmdecoder "github.com/makiuchi-d/gozxing/datamatrix/decoder"
	dmencoder "github.com/makiuchi-d/gozxing/datamatrix/encoder"
)

// dmLevels returns the module levels of a symbol as a sampler would measure them: ink 40,
// paper 210.
func dmLevels(m *gozxing.BitMatrix) []float64 {
	lv := make([]float64, m.GetWidth()*m.GetHeight())
	for i := range lv {
		lv[i] = 210
		if m.Get(i%m.GetWidth(), i/m.GetWidth()) {
			lv[i] = 40
		}
	}
	return lv
}

// TestDMLayout: for symbols of every shape and of one to ten interleaved blocks (gozxing's
// writer), the codewords read through dmLayoutFor form valid Reed–Solomon blocks, and the
// data codewords parse back to the text.
func TestDMLayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	sizes := map[[2]int]bool{}
	for _, n := range []int{1, 3, 6, 10, 16, 25, 40, 60, 90, 150, 250, 400, 700, 1200, 1500} {
		for _, shape := range []dmencoder.SymbolShapeHint{dmencoder.SymbolShapeHint_FORCE_SQUARE, dmencoder.SymbolShapeHint_FORCE_RECTANGLE} {
			var sb strings.Builder
			for range n {
				sb.WriteByte(byte('A' + rng.IntN(26)))
			}
			text := sb.String()
			m, err := dmWriter(text, shape)
			if err != nil {
				continue // too long for a rectangle
			}
			if dr, err := dmdecoder.NewDecoder().Decode(m); err != nil || dr.GetText() != text {
				continue // too long for a rectangle: the writer's matrix holds something else
			}
			rows, cols := m.GetHeight(), m.GetWidth()
			sizes[[2]int{rows, cols}] = true
			l := dmLayoutFor(rows, cols)
			if l == nil {
				t.Fatalf("%d×%d: no layout", rows, cols)
			}
			dark := make([]bool, rows*cols)
			for i := range dark {
				dark[i] = m.Get(i%cols, i/cols)
			}
			raw, _ := softCodewords(dark, make([]float64, len(dark)), l.bits)
			for b, blk := range l.blocks {
				cw := make([]byte, len(blk))
				for p, k := range blk {
					cw[p] = raw[k]
				}
				if _, zero := dmField.syndromes(cw, len(blk)-l.nData[b]); !zero {
					t.Fatalf("%d×%d block %d of %d: not a codeword", rows, cols, b, len(l.blocks))
				}
			}
			d := NewDecoder(Options{Formats: DataMatrix})
			s := &dmSampler{vals: dmLevels(m), rows: rows, cols: cols}
			if len(l.blocks[0])-l.nData[0] >= dmSoftMinCheck {
				if r, ok := d.dmSoftRead(s); !ok || r.Text != text {
					t.Fatalf("%d×%d: soft read %q, %v; want %q", rows, cols, r.Text, ok, text)
				}
			}
		}
	}
	if len(sizes) < 20 {
		t.Fatalf("only %d sizes tried", len(sizes))
	}
}

func dmWriter(text string, shape dmencoder.SymbolShapeHint) (*gozxing.BitMatrix, error) {
	hints := map[gozxing.EncodeHintType]interface{}{gozxing.EncodeHintType_DATA_MATRIX_SHAPE: shape}
	return datamatrix.NewDataMatrixWriter().Encode(text, gozxing.BarcodeFormat_DATA_MATRIX, 0, 0, hints)
}

// TestDMSoftReadsCoveredSymbol: a 22×22 symbol (20 check codewords) with a finger (a disc of skin, mid grey) and
// a glare spot (white) over its data does not read thresholded, and reads with soft
// decisions.
func TestDMSoftReadsCoveredSymbol(t *testing.T) {
	const text = "00N0Y4G2VTPVXVR14D2PF2DBS HJES6MKMS9RGQ"
	m := dmMatrix(t, text, dmencoder.SymbolShapeHint_FORCE_SQUARE)
	rows, cols := m.GetHeight(), m.GetWidth()
	lv := dmLevels(m)
	disc := func(cx, cy, r, level float64) {
		for y := range rows {
			for x := range cols {
				if dx, dy := float64(x)-cx, float64(y)-cy; dx*dx+dy*dy <= r*r {
					lv[y*cols+x] = level
				}
			}
		}
	}
	disc(7, 8, 3.0, 120)   // finger
	disc(14, 13, 2.5, 255) // glare
	d := NewDecoder(Options{Formats: DataMatrix})
	s := &dmSampler{vals: lv, rows: rows, cols: cols}
	for _, th := range dmThresholds {
		if r, ok := d.dmDecodeBits(s.bits(th)); ok {
			t.Fatalf("reads thresholded (%+v): %q; the cover is too small for the test", th, r.Text)
		}
	}
	if r, ok := d.dmSoftRead(s); !ok || r.Text != text || r.Format != DataMatrix {
		t.Fatalf("soft read %+v, %v", r, ok)
	}
}

// TestDMSoftRefusesNoise: module levels of noise in symbols of the sizes the soft read
// takes never read.
func TestDMSoftRefusesNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	d := NewDecoder(Options{Formats: DataMatrix})
	per := 200
	if raceEnabled { // 13 s under -race; the full-size stage runs the 200
		per = 40
	}
	for _, sz := range [][2]int{{18, 18}, {20, 20}, {22, 22}, {26, 26}, {32, 32}} {
		for range per {
			lv := make([]float64, sz[0]*sz[1])
			for i := range lv {
				lv[i] = 40 + 170*rng.Float64()
			}
			if r, ok := d.dmSoftRead(&dmSampler{vals: lv, rows: sz[0], cols: sz[1]}); ok {
				t.Fatalf("%v noise read as %q", sz, r.Text)
			}
		}
	}
}

// FuzzDMSoftRead: any module levels of any size (the first two bytes: rows and columns, the
// rest the levels) read as a non-empty DataMatrix text or not at all; never a panic, also
// for sizes that are no ECC 200 symbol.
func FuzzDMSoftRead(f *testing.F) {
	m, err := dmWriter("00N0Y4G2VTPVXVR14D2PF2DBS HJES6MKMS9RGQ", dmencoder.SymbolShapeHint_FORCE_SQUARE)
	if err != nil {
		f.Fatal(err)
	}
	seed := []byte{byte(m.GetHeight()), byte(m.GetWidth())}
	for i, v := range dmLevels(m) {
		seed = append(seed, byte(v)^byte(i*29)&0x1F)
	}
	f.Add(seed)
	f.Add(append([]byte{18, 18}, make([]byte, 18*18)...))
	f.Add(append([]byte{16, 48}, make([]byte, 16*48)...))
	f.Add([]byte{7, 200, 1, 2, 3})
	d := NewDecoder(Options{Formats: DataMatrix})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 2 {
			return
		}
		rows, cols := int(b[0]), int(b[1])
		if rows == 0 || cols == 0 || rows*cols > len(b)-2 {
			return
		}
		lv := make([]float64, rows*cols)
		for i := range lv {
			lv[i] = float64(b[2+i])
		}
		if r, ok := d.dmSoftRead(&dmSampler{vals: lv, rows: rows, cols: cols}); ok && (r.Text == "" || r.Format != DataMatrix) {
			t.Fatalf("empty or foreign read %+v", r)
		}
	})
}
