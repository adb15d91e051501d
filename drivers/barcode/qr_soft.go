package barcode

import (
	"strconv"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode/decoder"
)

// qrSoftDecode reads a QR module matrix whose modules come with a confidence (0: unseen,
// under a glare spot): each block is corrected by softCorrect (soft.go). Format and version
// information, the data masks, the interleaving into blocks and the bit stream are
// gozxing's.
func qrSoftDecode(dark []bool, conf []float64, dim int) (Result, bool) {
	return qrSoftDecodeChase(dark, conf, dim, softSearch{})
}

// softSearch is what a soft read tries on a block that softCorrect does not correct:
// ordered statistics (osdSearch) when osd, then up to trials words of Chase's search
// (chaseSearch) until stop (0: none).
type softSearch struct {
	osd    bool
	trials int
	stop   func() bool
}

// search corrects block cw (nsym check codewords, sc its codewords' confidences) of field
// f as ss says.
func (ss softSearch) search(f *rsField, cw []byte, nsym int, sc []softCodeword) ([]byte, bool) {
	if ss.osd {
		if fixed, ok := osdSearch(f, cw, nsym, sc); ok {
			return fixed, true
		}
	}
	if ss.trials > 0 {
		return chaseSearch(f, cw, nsym, sc, ss.trials, ss.stop)
	}
	return cw, false
}

// qrSoftDecodeChase is qrSoftDecode, and where softCorrect does not correct a block, the
// searches ss says.
func qrSoftDecodeChase(dark []bool, conf []float64, dim int, ss softSearch) (Result, bool) {
	parser, err := decoder.NewBitMatrixParser(qrMatrix(dark, dim))
	if err != nil {
		return Result{}, false
	}
	fi, err := parser.ReadFormatInformation()
	if err != nil {
		return Result{}, false
	}
	version, err := parser.ReadVersion()
	if err != nil || version.GetDimensionForVersion() != dim {
		return Result{}, false
	}
	ecl := fi.GetErrorCorrectionLevel()
	un := qrMatrix(dark, dim)
	decoder.DataMaskValues[fi.GetDataMask()].UnmaskBitMatrix(un, dim)
	order := qrDataModules(version)
	total := version.GetTotalCodewords()
	if len(order) < 8*total {
		return Result{}, false
	}
	// The codewords read from the unmasked matrix.
	bits := make([][8]int, total)
	for k := range bits {
		copy(bits[k][:], order[8*k:8*k+8])
	}
	undark := make([]bool, len(dark))
	for m := range undark {
		undark[m] = un.Get(m%dim, m/dim)
	}
	raw, sc := softCodewords(undark, conf, bits)
	blocks, where, err := qrBlocks(raw, version, ecl)
	if err != nil {
		return Result{}, false
	}
	var data []byte
	for bi, b := range blocks {
		cw := b.GetCodewords()
		nData := b.GetNumDataCodewords()
		bsc := make([]softCodeword, len(cw))
		for p, k := range where[bi] {
			bsc[p] = sc[k]
		}
		// The format information vouches for the grid: rsSlack's check codewords suffice.
		fixed, ok := softCorrect(qrField, cw, len(cw)-nData, bsc, 8*rsSlack)
		if !ok {
			fixed, ok = ss.search(qrField, cw, len(cw)-nData, bsc)
		}
		if !ok {
			return Result{}, false
		}
		data = append(data, fixed[:nData]...)
	}
	dr, err := decoder.DecodedBitStreamParser_Decode(data, version, ecl, nil)
	if err != nil || dr.GetText() == "" {
		return Result{}, false
	}
	return Result{Text: dr.GetText(), Symbology: "]Q" + strconv.Itoa(dr.GetSymbologyModifier()),
		Format: QRCode, Located: true}, true
}

// qrBlocks splits the raw codewords into gozxing's data blocks and returns, for each block,
// the raw index of each of its codewords.
func qrBlocks(raw []byte, version *decoder.Version, ecl decoder.ErrorCorrectionLevel) ([]*decoder.DataBlock, [][]int, error) {
	blocks, err := decoder.DataBlock_GetDataBlocks(raw, version, ecl)
	if err != nil {
		return nil, nil, err
	}
	// The same interleaving applied to the indices (low and high byte apart).
	lo, hi := make([]byte, len(raw)), make([]byte, len(raw))
	for i := range raw {
		lo[i], hi[i] = byte(i), byte(i>>8)
	}
	bl, err := decoder.DataBlock_GetDataBlocks(lo, version, ecl)
	if err != nil {
		return nil, nil, err
	}
	bh, err := decoder.DataBlock_GetDataBlocks(hi, version, ecl)
	if err != nil {
		return nil, nil, err
	}
	where := make([][]int, len(blocks))
	for i := range blocks {
		l, h := bl[i].GetCodewords(), bh[i].GetCodewords()
		where[i] = make([]int, len(l))
		for p := range l {
			where[i][p] = int(l[p]) | int(h[p])<<8
		}
	}
	return blocks, where, nil
}

// qrDataModules returns the data modules of a symbol of the version (index y·dim+x) in the
// order their bits are read (ISO/IEC 18004 7.7.3: column pairs from the right, upwards and
// downwards in turn, around the function patterns).
func qrDataModules(version *decoder.Version) []int {
	dim := version.GetDimensionForVersion()
	fn := make([]bool, dim*dim)
	region := func(x, y, w, h int) {
		for j := y; j < y+h; j++ {
			for i := x; i < x+w; i++ {
				fn[j*dim+i] = true
			}
		}
	}
	region(0, 0, 9, 9)      // finder, separator, format (top left)
	region(dim-8, 0, 8, 9)  // top right
	region(0, dim-8, 9, 8)  // bottom left
	region(6, 9, 1, dim-17) // timing
	region(9, 6, dim-17, 1) // timing
	if version.GetVersionNumber() > 6 {
		region(dim-11, 0, 3, 6) // version information
		region(0, dim-11, 6, 3)
	}
	ap := version.GetAlignmentPatternCenters()
	for x := range ap {
		for y := range ap {
			if (x == 0 && (y == 0 || y == len(ap)-1)) || (x == len(ap)-1 && y == 0) {
				continue
			}
			region(ap[y]-2, ap[x]-2, 5, 5)
		}
	}
	var out []int
	up := true
	for j := dim - 1; j > 0; j -= 2 {
		if j == 6 {
			j--
		}
		for c := range dim {
			i := c
			if up {
				i = dim - 1 - c
			}
			for col := range 2 {
				if m := i*dim + j - col; !fn[m] {
					out = append(out, m)
				}
			}
		}
		up = !up
	}
	return out
}

// qrMatrix returns the dim×dim module matrix dark (row major) as a gozxing bit matrix.
func qrMatrix(dark []bool, dim int) *gozxing.BitMatrix {
	bits, _ := gozxing.NewSquareBitMatrix(dim)
	for m, v := range dark {
		if v {
			bits.Set(m%dim, m/dim)
		}
	}
	return bits
}
