package barcode

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode/decoder"
	"github.com/makiuchi-d/gozxing/qrcode/encoder"
)

// qrSymbol encodes text at the version and level with gozxing's encoder and returns its
// module matrix (row major, true = dark) and dimension.
func qrSymbol(t testing.TB, text string, version int, ecl decoder.ErrorCorrectionLevel) ([]bool, int) {
	t.Helper()
	hints := map[gozxing.EncodeHintType]interface{}{gozxing.EncodeHintType_QR_VERSION: version}
	q, err := encoder.Encoder_encode(text, ecl, hints)
	if err != nil {
		t.Fatal(err)
	}
	m := q.GetMatrix()
	dim := m.GetWidth()
	dark := make([]bool, dim*dim)
	for y := range dim {
		for x := range dim {
			dark[y*dim+x] = m.Get(x, y) == 1
		}
	}
	return dark, dim
}

// TestQRDataModulesAndBlocks: our reading order of the data modules gives the codewords
// gozxing's parser reads, and qrBlocks the positions gozxing's de-interleaving puts them at,
// for versions of every size class (no alignment pattern, one, several, version information).
func TestQRDataModulesAndBlocks(t *testing.T) {
	for _, v := range []int{1, 2, 6, 7, 14, 25, 40} {
		for _, ecl := range []decoder.ErrorCorrectionLevel{decoder.ErrorCorrectionLevel_L, decoder.ErrorCorrectionLevel_H} {
			dark, dim := qrSymbol(t, "HELLO 123", v, ecl)
			parser, err := decoder.NewBitMatrixParser(qrMatrix(dark, dim))
			if err != nil {
				t.Fatal(err)
			}
			want, err := parser.ReadCodewords()
			if err != nil {
				t.Fatal(err)
			}
			version, _ := decoder.Version_GetVersionForNumber(v)
			fi, _ := parser.ReadFormatInformation()
			un := qrMatrix(dark, dim)
			decoder.DataMaskValues[fi.GetDataMask()].UnmaskBitMatrix(un, dim)
			order := qrDataModules(version)
			got := make([]byte, version.GetTotalCodewords())
			for k := range got {
				for b := range 8 {
					m := order[8*k+b]
					got[k] <<= 1
					if un.Get(m%dim, m/dim) {
						got[k] |= 1
					}
				}
			}
			if string(got) != string(want) {
				t.Fatalf("version %d: codewords differ from gozxing's", v)
			}
			blocks, where, err := qrBlocks(got, version, ecl)
			if err != nil {
				t.Fatal(err)
			}
			for bi, b := range blocks {
				for p, c := range b.GetCodewords() {
					if got[where[bi][p]] != c {
						t.Fatalf("version %d block %d codeword %d: position %d holds another", v, bi, p, where[bi][p])
					}
				}
			}
		}
	}
}

// glareDisc turns the modules within radius r (modules) of (cx, cy) light, as a saturating
// glare spot does, and returns their indices.
func glareDisc(dark []bool, dim int, cx, cy, r float64) []int {
	var hit []int
	for y := range dim {
		for x := range dim {
			if math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy) <= r {
				dark[y*dim+x] = false
				hit = append(hit, y*dim+x)
			}
		}
	}
	return hit
}

// TestQRSoftDecodeGlare: a version 2-M symbol (the terminal's validation code) under a glare
// spot that whitens more modules than its check codewords correct as errors is read once
// those modules are declared unseen, and not without.
func TestQRSoftDecodeGlare(t *testing.T) {
	const text = "00N0Y4G2VTPVXVR14D2PF2DBS"
	dark, dim := qrSymbol(t, text, 2, decoder.ErrorCorrectionLevel_M)
	hit := glareDisc(dark, dim, 15.5, 15.5, 4.4)
	if _, err := decoder.NewDecoder().Decode(qrMatrix(dark, dim), nil); err == nil {
		t.Fatalf("gozxing reads the symbol with %d modules whitened: the glare is too small for the test", len(hit))
	}
	conf := make([]float64, dim*dim)
	for i := range conf {
		conf[i] = 1
	}
	if _, ok := qrSoftDecode(dark, conf, dim); ok {
		t.Fatal("read without erasures: the glare is too small for the test")
	}
	for _, m := range hit {
		conf[m] = 0
	}
	r, ok := qrSoftDecode(dark, conf, dim)
	if !ok || r.Text != text || r.Format != QRCode || r.Symbology != "]Q1" {
		t.Fatalf("%d modules erased: got %+v, %v", len(hit), r, ok)
	}
}

// TestQRSoftDecodeRefusesNoise: module matrices of noise with a valid-looking format area
// never read, whatever is erased.
func TestQRSoftDecodeRefusesNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	base, dim := qrSymbol(t, "X", 2, decoder.ErrorCorrectionLevel_M)
	version, _ := decoder.Version_GetVersionForNumber(2)
	data := qrDataModules(version)
	for range 300 {
		dark := append([]bool(nil), base...)
		conf := make([]float64, dim*dim)
		for _, m := range data {
			dark[m] = rng.IntN(2) == 0
			conf[m] = rng.Float64() * 0.4
		}
		if r, ok := qrSoftDecode(dark, conf, dim); ok && !strings.Contains(r.Text, "X") {
			t.Fatalf("noise read as %q", r.Text)
		}
	}
}

// FuzzQRSoftDecode: any module matrix and confidences read as a non-empty QR text or not
// at all; never a panic.
func FuzzQRSoftDecode(f *testing.F) {
	dark, dim := qrSymbol(f, "00N0Y4G2VTPVXVR14D2PF2DBS", 2, decoder.ErrorCorrectionLevel_M)
	seed := make([]byte, dim*dim)
	for i, v := range dark {
		if v {
			seed[i] = 1
		}
		seed[i] |= byte(i*37) & 0xF0
	}
	f.Add(seed)
	f.Add(make([]byte, 21*21))
	f.Add(make([]byte, 45*45))
	f.Fuzz(func(t *testing.T, b []byte) {
		dim := int(math.Sqrt(float64(len(b))))
		if dim < 21 || dim > 57 {
			return
		}
		dark := make([]bool, dim*dim)
		conf := make([]float64, dim*dim)
		for i := range dark {
			dark[i] = b[i]&1 == 1
			conf[i] = float64(b[i]>>4) / 15
		}
		if r, ok := qrSoftDecode(dark, conf, dim); ok && (r.Text == "" || r.Format != QRCode) {
			t.Fatalf("empty read %+v", r)
		}
	})
}
