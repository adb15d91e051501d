package barcode

import (
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"sync"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/datamatrix"
	"github.com/makiuchi-d/gozxing/oned"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// Result is a decoded code: its text and how it was printed.
type Result struct {
	// Text is the decoded content, as a scanner would deliver it (without AIM prefix).
	Text string
	// Symbology is the AIM identifier (ISO/IEC 15424), e.g. "]C0", "]I0", "]Q1", "]d1".
	Symbology string
	// Format is the symbology as a Format value.
	Format Format
	// Located reports whether our locator found the symbol (false: gozxing's own
	// full-frame search did).
	Located bool
}

// ErrNotFound is returned when no code of the requested formats is in the image.
var ErrNotFound = errors.New("barcode: no code found")

// Options restrict what a Decoder looks for.
type Options struct {
	// Formats to read; zero means DefaultOptions.Formats.
	Formats Format
	// ITFLengths lists the accepted ITF lengths in digits (ITF has no checksum of its own,
	// so a length filter is what keeps clutter from reading as ITF). Nil: any even length ≥ 6.
	ITFLengths []int
}

// DefaultOptions are the terminal's codes (docs/codes.md): Code 128 pack codes, 14-digit
// ITF ticket codes and QR validation codes.
var DefaultOptions = Options{Formats: Code128 | ITF | QRCode, ITFLengths: []int{14}}

// Decoder reads codes from images. It is not safe for concurrent use; Decode is.
type Decoder struct {
	opt     Options
	code128 rowDecoder
	itf     rowDecoder
	qr      *qrcode.QRCodeReader
	dm      *datamatrix.DataMatrixReader
	row     *gozxing.BitArray
}

type rowDecoder interface {
	DecodeRow(rowNumber int, row *gozxing.BitArray, hints map[gozxing.DecodeHintType]interface{}) (*gozxing.Result, error)
}

// NewDecoder returns a decoder for opt.
func NewDecoder(opt Options) *Decoder {
	if opt.Formats == 0 {
		opt.Formats = DefaultOptions.Formats
	}
	return &Decoder{
		opt:     opt,
		code128: oned.NewCode128Reader().(rowDecoder),
		itf:     oned.NewITFReader().(rowDecoder),
		qr:      qrcode.NewQRCodeReader().(*qrcode.QRCodeReader),
		dm:      datamatrix.NewDataMatrixReader(),
	}
}

var pool = sync.Pool{New: func() any { return NewDecoder(DefaultOptions) }}

// Decode finds and decodes one code of the default formats (DefaultOptions) anywhere in img.
func Decode(img image.Image) (Result, error) {
	d := pool.Get().(*Decoder)
	defer pool.Put(d)
	return d.Decode(img)
}

// Decode finds and decodes one code of the decoder's formats anywhere in img: first in the
// regions the locator proposes, best first, then with gozxing's full-frame detectors.
func (d *Decoder) Decode(img image.Image) (Result, error) {
	b := img.Bounds()
	if b.Dx() < 8 || b.Dy() < 8 {
		return Result{}, fmt.Errorf("%w: image %dx%d too small", ErrNotFound, b.Dx(), b.Dy())
	}
	g := toGray(img)
	regions := locate(&g)
	tried2D := 0
	tried1D := 0
	for _, r := range regions {
		if r.linear && d.opt.Formats&OneD != 0 && tried1D < 4 {
			tried1D++
			if res, ok := d.decodeLinear(&g, r); ok {
				return res, nil
			}
		}
		if !r.linear && d.opt.Formats&TwoD != 0 && tried2D < 4 {
			tried2D++
			if res, ok := d.decodeMatrix(&g, r); ok {
				return res, nil
			}
		}
	}
	if res, ok := d.decodeFull(&g); ok {
		return res, nil
	}
	return Result{}, ErrNotFound
}

// decodeLinear reads bands across the bars of a linear candidate: each band averages a few
// parallel lines, is upsampled so that a module spans ≥ 3 samples, thresholded against its
// local envelope, and handed to gozxing's row decoders both ways round.
func (d *Decoder) decodeLinear(g *gray, r region) (Result, bool) {
	ux, uy := math.Cos(r.angle), math.Sin(r.angle)
	vx, vy := -uy, ux
	margin := 0.25*r.halfU + cellSize
	length := 2 * (r.halfU + margin)
	k := 2.0
	if length > 900 {
		k = 1
	}
	n := int(length * k)
	if n < 32 || n > 4000 {
		return Result{}, false
	}
	prof := make([]float64, n)
	bits := make([]bool, n)
	for _, f := range []float64{0, -0.2, 0.2, -0.4, 0.4, -0.6, 0.6} {
		off := f * r.halfV
		clear(prof)
		for _, dv := range []float64{-2, -1, 0, 1, 2} {
			sx := r.cx - (r.halfU+margin)*ux + (off+dv)*vx
			sy := r.cy - (r.halfU+margin)*uy + (off+dv)*vy
			for i := range prof {
				t := (float64(i) + 0.5) / k
				prof[i] += g.at(sx+t*ux, sy+t*uy)
			}
		}
		binarize(prof, bits, max(12, n/10))
		if res, ok := d.decodeBits(bits); ok {
			return res, true
		}
		if edgeBits(prof, bits) {
			if res, ok := d.decodeBits(bits); ok {
				return res, true
			}
		}
	}
	return Result{}, false
}

// binarize thresholds a profile at the midpoint of its local minimum and maximum over a
// window; where the local contrast is too low to hold bars it reads white (quiet zones).
func binarize(p []float64, out []bool, win int) {
	n := len(p)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range p {
		lo, hi = min(lo, v), max(hi, v)
	}
	floor := 0.15 * (hi - lo)
	h := win / 2
	for i := range p {
		a, b := max(0, i-h), min(n, i+h+1)
		mn, mx := p[a], p[a]
		for _, v := range p[a+1 : b] {
			mn, mx = min(mn, v), max(mx, v)
		}
		out[i] = mx-mn >= floor && p[i] < (mn+mx)/2
	}
}

func bitmap(g *gray) (*gozxing.BinaryBitmap, error) {
	src, err := gozxing.NewPlanarYUVLuminanceSource(g.pix, g.w, g.h, 0, 0, g.w, g.h, false)
	if err != nil {
		return nil, err
	}
	return gozxing.NewBinaryBitmap(gozxing.NewHybridBinarizer(src))
}

// edgeBits finds the bar edges as alternating extrema of the profile's derivative (the
// method of laser scanners and zbar): blur lowers a narrow bar's contrast but keeps its two
// edges, so this reads codes that a threshold loses. It reports false when no edges exist.
func edgeBits(p []float64, out []bool) bool {
	n := len(p)
	if n < 8 {
		return false
	}
	der := make([]float64, n)
	var peak float64
	for i := 1; i < n-1; i++ {
		der[i] = p[i+1] - p[i-1]
		peak = max(peak, math.Abs(der[i]))
	}
	thr := 0.06 * peak
	type edge struct {
		pos int
		v   float64
	}
	edges := make([]edge, 0, 128)
	for i := 1; i < n-1; i++ {
		v := math.Abs(der[i])
		if v < thr || v < math.Abs(der[i-1]) || v <= math.Abs(der[i+1]) {
			continue
		}
		if k := len(edges) - 1; k >= 0 && (edges[k].v < 0) == (der[i] < 0) {
			if v > math.Abs(edges[k].v) {
				edges[k] = edge{i, der[i]}
			}
			continue
		}
		edges = append(edges, edge{i, der[i]})
	}
	if len(edges) < 8 {
		return false
	}
	clear(out)
	for k, e := range edges {
		if e.v >= 0 {
			continue // rising edge: a space starts
		}
		end := n
		if k+1 < len(edges) {
			end = edges[k+1].pos
		}
		for i := e.pos; i < end; i++ {
			out[i] = true
		}
	}
	return true
}

func (d *Decoder) decodeBits(bits []bool) (Result, bool) {
	n := len(bits)
	if d.row == nil || d.row.GetSize() != n {
		d.row = gozxing.NewBitArray(n)
	}
	for rev := 0; rev < 2; rev++ {
		d.row.Clear()
		for i, b := range bits {
			if b {
				if rev == 0 {
					d.row.Set(i)
				} else {
					d.row.Set(n - 1 - i)
				}
			}
		}
		if d.opt.Formats&Code128 != 0 {
			if res, err := d.code128.DecodeRow(0, d.row, nil); err == nil {
				return d.result(res, true)
			}
		}
		if d.opt.Formats&ITF != 0 {
			hints := map[gozxing.DecodeHintType]interface{}{gozxing.DecodeHintType_ALLOWED_LENGTHS: d.itfLengths()}
			if res, err := d.itf.DecodeRow(0, d.row, hints); err == nil {
				if r, ok := d.result(res, true); ok {
					return r, true
				}
			}
		}
	}
	return Result{}, false
}

func (d *Decoder) itfLengths() []int {
	if len(d.opt.ITFLengths) > 0 {
		return d.opt.ITFLengths
	}
	return []int{6, 8, 10, 12, 14}
}

// result converts a gozxing result, enforcing the format set and the ITF lengths.
func (d *Decoder) result(r *gozxing.Result, located bool) (Result, bool) {
	f := fromZXing(r.GetBarcodeFormat())
	if f == 0 || d.opt.Formats&f == 0 || r.GetText() == "" {
		return Result{}, false
	}
	if f == ITF {
		l := len(r.GetText())
		if l%2 != 0 || (len(d.opt.ITFLengths) > 0 && !slices.Contains(d.opt.ITFLengths, l)) || l < 6 {
			return Result{}, false
		}
	}
	sym, _ := r.GetResultMetadata()[gozxing.ResultMetadataType_SYMBOLOGY_IDENTIFIER].(string)
	if sym == "" {
		sym = f.Symbology()
	}
	return Result{Text: r.GetText(), Symbology: sym, Format: f, Located: located}, true
}

// decodeMatrix resamples a matrix candidate upright (module grid on the axes), with a
// margin for the quiet zone and at a scale where a module spans a few pixels, then runs
// gozxing's QR and DataMatrix readers on that crop alone.
func (d *Decoder) decodeMatrix(g *gray, r region) (Result, bool) {
	s := max(r.halfU, r.halfV)
	s += max(0.3*s, 12)
	k := min(3, max(1, 240/(2*s)))
	n := int(2 * s * k)
	if n < 24 || n > 1200 {
		return Result{}, false
	}
	ux, uy := math.Cos(r.angle)/k, math.Sin(r.angle)/k
	ox := r.cx - s*(math.Cos(r.angle)-math.Sin(r.angle))
	oy := r.cy - s*(math.Sin(r.angle)+math.Cos(r.angle))
	crop := g.resample(ox, oy, ux, uy, -uy, ux, n, n)
	return d.decode2D(&crop, true)
}

func (d *Decoder) decode2D(g *gray, located bool) (Result, bool) {
	bmp, err := bitmap(g)
	if err != nil {
		return Result{}, false
	}
	if d.opt.Formats&QRCode != 0 {
		if res, err := d.qr.Decode(bmp, nil); err == nil {
			if r, ok := d.result(res, located); ok {
				return r, true
			}
		}
	}
	if d.opt.Formats&DataMatrix != 0 {
		if res, err := d.dm.Decode(bmp, nil); err == nil {
			if r, ok := d.result(res, located); ok {
				return r, true
			}
		}
	}
	return Result{}, false
}

// decodeFull is the fallback: gozxing's own detectors over the whole frame.
func (d *Decoder) decodeFull(g *gray) (Result, bool) {
	if d.opt.Formats&TwoD != 0 {
		if r, ok := d.decode2D(g, false); ok {
			return r, true
		}
	}
	if d.opt.Formats&OneD != 0 {
		bmp, err := bitmap(g)
		if err != nil {
			return Result{}, false
		}
		hints := map[gozxing.DecodeHintType]interface{}{
			gozxing.DecodeHintType_TRY_HARDER: true, gozxing.DecodeHintType_ALLOWED_LENGTHS: d.itfLengths(),
		}
		for _, f := range []Format{Code128, ITF} {
			if d.opt.Formats&f == 0 {
				continue
			}
			var rd gozxing.Reader
			if f == Code128 {
				rd = oned.NewCode128Reader()
			} else {
				rd = oned.NewITFReader()
			}
			if res, err := rd.Decode(bmp, hints); err == nil {
				if r, ok := d.result(res, false); ok {
					return r, true
				}
			}
		}
	}
	return Result{}, false
}
