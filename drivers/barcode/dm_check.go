package barcode

import (
	"github.com/makiuchi-d/gozxing"
	dmencoder "github.com/makiuchi-d/gozxing/datamatrix/encoder"
)

// A guard against false reads. Reed–Solomon with few error-correction codewords accepts a
// wrong word now and then: a 10×10 symbol (5 EC codewords) corrects any 2 of its 8
// codewords, so about one random module matrix in 600 000 decodes, and our search samples
// many hypotheses per frame (a QR symbol once read as a 10×10 DataMatrix). For the small
// single-block sizes, dmCorrections counts the codewords the decoder had to correct (the
// corrected codewords encoded again, against those read through the symbol's layout,
// dmLayoutFor), and a read needs at least one correction in reserve.

// dmCorrections returns how many codewords of the module matrix bm differ from the symbol
// that the corrected data codewords make; ok is false for sizes it does not check
// (several interleaved blocks or data regions: their many EC codewords make false reads
// negligible).
func dmCorrections(bm *gozxing.BitMatrix, data []byte) (n int, ecc int, ok bool) {
	cols, rows := bm.GetWidth(), bm.GetHeight()
	dim, err := gozxing.NewDimension(cols, rows)
	if err != nil {
		return 0, 0, false
	}
	si, err := dmencoder.SymbolInfo_Lookup(len(data), dmencoder.SymbolShapeHint_FORCE_NONE, dim, dim, false)
	if err != nil || si == nil || si.GetInterleavedBlockCount() != 1 ||
		si.GetSymbolDataWidth() != cols-2 || si.GetSymbolDataHeight() != rows-2 || si.GetDataCapacity() != len(data) {
		return 0, 0, false
	}
	full, err := dmencoder.ErrorCorrection_EncodeECC200(data, si)
	if err != nil {
		return 0, 0, false
	}
	l := dmLayoutFor(rows, cols)
	if l == nil || len(l.bits) != len(full) {
		return 0, 0, false
	}
	dark := make([]bool, rows*cols)
	for m := range dark {
		dark[m] = bm.Get(m%cols, m/cols)
	}
	read, _ := softCodewords(dark, make([]float64, len(dark)), l.bits)
	for k := range full {
		if read[k] != full[k] {
			n++
		}
	}
	return n, si.GetErrorCodewords(), true
}

// dmPlausible reports whether a decoded matrix keeps a correction in reserve: of the
// ecc/2 codewords Reed–Solomon can correct, it used at most ecc/2 − 1 (only checked where
// ecc/2 ≤ 5: the sizes up to 14×14 and the small rectangles).
func dmPlausible(bm *gozxing.BitMatrix, data []byte) bool {
	n, ecc, ok := dmCorrections(bm, data)
	if !ok || ecc/2 > 5 {
		return true
	}
	return n <= ecc/2-1
}
