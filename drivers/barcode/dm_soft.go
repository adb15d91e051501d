package barcode

import (
	"strconv"
	"sync"

	"github.com/makiuchi-d/gozxing"
	dmdecoder "github.com/makiuchi-d/gozxing/datamatrix/decoder"
	dmencoder "github.com/makiuchi-d/gozxing/datamatrix/encoder"
)

// DataMatrix read with soft decisions: when no threshold of a sampler's modules corrects
// (a finger, two glare spots, a shadow over the data), the modules are decided with a
// confidence (moduleBits) and each Reed–Solomon block corrected by softCorrect, erasing the
// codewords read from its least sure modules. The codeword placement (ISO/IEC 16022 Annex F)
// and the symbol table are gozxing's encoder's; the text is gozxing's bit-stream parser's.

// dmLayout is where the bits of one symbol size's codewords lie and how the codewords
// form Reed–Solomon blocks.
type dmLayout struct {
	bits    [][8]int // per codeword, its modules in the full symbol (row major), MSB first
	blocks  [][]int  // per block, its codewords: data first, then check codewords
	nData   []int    // per block, its data codewords
	dataCap int      // data codewords of the symbol
}

// dmLayouts caches the layouts by size (rows<<16 | cols): about 70 placements each.
var dmLayouts sync.Map

// dmLayoutFor returns the layout of a rows×cols ECC 200 symbol, or nil for a size that is
// not one.
func dmLayoutFor(rows, cols int) *dmLayout {
	key := rows<<16 | cols
	if l, ok := dmLayouts.Load(key); ok {
		return l.(*dmLayout)
	}
	l := newDMLayout(rows, cols)
	if l == nil {
		return nil
	}
	dmLayouts.Store(key, l)
	return l
}

func newDMLayout(rows, cols int) *dmLayout {
	dim, err := gozxing.NewDimension(cols, rows)
	if err != nil {
		return nil
	}
	shape := dmencoder.SymbolShapeHint_FORCE_SQUARE
	if rows != cols {
		shape = dmencoder.SymbolShapeHint_FORCE_RECTANGLE
	}
	si, err := dmencoder.SymbolInfo_Lookup(1, shape, dim, dim, false)
	if err != nil || si == nil || si.GetSymbolWidth() != cols || si.GetSymbolHeight() != rows {
		return nil
	}
	w, h := si.GetSymbolDataWidth(), si.GetSymbolDataHeight()
	rw, rh := si.GetMatrixWidth(), si.GetMatrixHeight()
	total := si.GetCodewordCount()
	// A module of the mapping matrix in the full symbol: each data region has a module of
	// finder or clock track on every side.
	full := func(r, c int) int { return (r/rh*(rh+2)+1+r%rh)*cols + c/rw*(rw+2) + 1 + c%rw }
	place := func(cw []byte) *dmencoder.DefaultPlacement {
		p := dmencoder.NewDefaultPlacement(cw, w, h)
		p.Place()
		return p
	}
	cw := make([]byte, total)
	fixed := place(cw) // set with every codeword 0: the fixed corner pattern of some sizes
	owner := make([]int, w*h)
	for i := range owner {
		owner[i] = -1
	}
	for k := range total {
		clear(cw)
		cw[k] = 0xFF
		p := place(cw)
		for r := range h {
			for c := range w {
				if p.GetBit(c, r) && !fixed.GetBit(c, r) {
					owner[r*w+c] = k
				}
			}
		}
	}
	l := &dmLayout{bits: make([][8]int, total), dataCap: si.GetDataCapacity()}
	for k := range l.bits {
		l.bits[k] = [8]int{-1, -1, -1, -1, -1, -1, -1, -1}
	}
	for b := range 8 {
		for k := range cw {
			cw[k] = 0x80 >> b
		}
		p := place(cw)
		for r := range h {
			for c := range w {
				if k := owner[r*w+c]; k >= 0 && p.GetBit(c, r) {
					l.bits[k][b] = full(r, c)
				}
			}
		}
	}
	// Interleaving (ISO/IEC 16022 5.7.3): data codeword d and check codeword e belong to
	// blocks d mod n and e mod n.
	n := si.GetInterleavedBlockCount()
	l.blocks, l.nData = make([][]int, n), make([]int, n)
	for d := range l.dataCap {
		l.blocks[d%n] = append(l.blocks[d%n], d)
		l.nData[d%n]++
	}
	for e := range total - l.dataCap {
		l.blocks[e%n] = append(l.blocks[e%n], l.dataCap+e)
	}
	return l
}

// dmSoftMinCheck is the fewest check codewords per block for which dmSoftRead tries: the
// small sizes keep errors-only decoding and the dmPlausible guard.
const dmSoftMinCheck = 14

// dmSoftEvidence is the bits of evidence (softEvidence) a correction with erasures needs.
// DataMatrix has no format information to vouch for a sampled grid as QR has, and our
// detector samples many outlines of clutter per frame: 32 bits, as if four check codewords
// were left unused, keep a false read under one in 10⁸ per sampled grid (softCorrect tries
// up to 25 sets of erasures per block).
const dmSoftEvidence = 32

// dmSoftRead reads a sampler's modules with soft decisions.
func (d *Decoder) dmSoftRead(s *dmSampler) (Result, bool) {
	l := dmLayoutFor(s.rows, s.cols)
	if l == nil {
		return Result{}, false
	}
	for b, blk := range l.blocks {
		if len(blk)-l.nData[b] < dmSoftMinCheck {
			return Result{}, false
		}
	}
	dark, conf := moduleBits(s.vals, s.cols, s.rows, 2)
	return d.dmSoftDecode(l, dark, conf, softSearch{})
}

// dmSoftDecodeChase reads an n×n symbol's modules decided dark or not, each with a
// confidence, as dmSoftRead does, and where the soft correction does not correct a block,
// with the searches ss says: ordered statistics (osdSearch) and up to ss.trials words of
// Chase's search (chaseSearch, bounded by chaseAffords: DataMatrix 18×18's block of 32
// codewords, 14 of them check codewords, affords about 4,800, so that a word near no
// codeword corrects with chance under 2⁻³² over all of them) until ss.stop says so.
func (d *Decoder) dmSoftDecodeChase(dark []bool, conf []float64, n int, ss softSearch) (Result, bool) {
	l := dmLayoutFor(n, n)
	if l == nil || len(dark) != n*n || len(conf) != n*n {
		return Result{}, false
	}
	for b, blk := range l.blocks {
		if len(blk)-l.nData[b] < dmSoftMinCheck {
			return Result{}, false
		}
	}
	return d.dmSoftDecode(l, dark, conf, ss)
}

// dmSoftDecode corrects the codewords of layout l read from the modules (dark, conf) block
// by block (softCorrect, then the searches ss says) and reads the text.
func (d *Decoder) dmSoftDecode(l *dmLayout, dark []bool, conf []float64, ss softSearch) (Result, bool) {
	raw, sc := softCodewords(dark, conf, l.bits)
	data := make([]byte, l.dataCap)
	for b, blk := range l.blocks {
		cw, bsc := make([]byte, len(blk)), make([]softCodeword, len(blk))
		for p, k := range blk {
			cw[p], bsc[p] = raw[k], sc[k]
		}
		nsym := len(blk) - l.nData[b]
		fixed, ok := softCorrect(dmField, cw, nsym, bsc, dmSoftEvidence)
		if !ok {
			fixed, ok = ss.search(dmField, cw, nsym, bsc)
		}
		if !ok {
			return Result{}, false
		}
		for p := range l.nData[b] {
			data[blk[p]] = fixed[p]
		}
	}
	dr, err := dmdecoder.DecodedBitStreamParser_decode(data)
	if err != nil || dr.GetText() == "" {
		return Result{}, false
	}
	r := gozxing.NewResult(dr.GetText(), dr.GetRawBytes(), nil, gozxing.BarcodeFormat_DATA_MATRIX)
	r.PutMetadata(gozxing.ResultMetadataType_SYMBOLOGY_IDENTIFIER, "]d"+strconv.Itoa(dr.GetSymbologyModifier()))
	return d.result(r, true)
}
