package barcode

import (
	"slices"
	"strconv"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode/decoder"
)

// qrSoftDecode reads a QR module matrix whose modules come with a confidence (0: unseen,
// under a glare spot): the codewords of each block whose modules are the least sure are
// erased, a few more at a time, until Reed–Solomon corrects the block (rsCorrect, with check
// codewords to spare). Format and version information, the data masks, the interleaving
// into blocks and the bit stream are gozxing's.
func qrSoftDecode(dark []bool, conf []float64, dim int) (Result, bool) {
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
	raw := make([]byte, total)
	rel := make([]float64, total)
	for k := range raw {
		rel[k] = 1
		for b := range 8 {
			m := order[8*k+b]
			raw[k] <<= 1
			if un.Get(m%dim, m/dim) {
				raw[k] |= 1
			}
			rel[k] = min(rel[k], conf[m])
		}
	}
	blocks, where, err := qrBlocks(raw, version, ecl)
	if err != nil {
		return Result{}, false
	}
	var data []byte
	for bi, b := range blocks {
		cw := b.GetCodewords()
		nData := b.GetNumDataCodewords()
		nsym := len(cw) - nData
		// The block's codewords, least sure first, among those unsure enough to erase.
		var unsure []int
		for p := range cw {
			if rel[where[bi][p]] < qrEraseBelow {
				unsure = append(unsure, p)
			}
		}
		slices.SortStableFunc(unsure, func(a, c int) int {
			ra, rc := rel[where[bi][a]], rel[where[bi][c]]
			switch {
			case ra < rc:
				return -1
			case ra > rc:
				return 1
			}
			return 0
		})
		ok := false
		for rho := 0; rho <= min(len(unsure), nsym-rsSlack); rho++ {
			try := slices.Clone(cw)
			if _, ok = rsCorrect(try, nsym, unsure[:rho]); ok {
				data = append(data, try[:nData]...)
				break
			}
		}
		if !ok {
			return Result{}, false
		}
	}
	dr, err := decoder.DecodedBitStreamParser_Decode(data, version, ecl, nil)
	if err != nil || dr.GetText() == "" {
		return Result{}, false
	}
	return Result{Text: dr.GetText(), Symbology: "]Q" + strconv.Itoa(dr.GetSymbologyModifier()),
		Format: QRCode, Located: true}, true
}

// qrEraseBelow is the confidence under which a codeword may be erased.
const qrEraseBelow = 0.2

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
