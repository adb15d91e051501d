package barcode

import "math"

// The deblurred retry (issue 34's envelope corner for the matrix codes): at 1.5-px modules
// blurred σ 0.8 (about σ 0.9 with the print's resampling), a QR symbol's finder patterns
// (runs of 1:1:3:1:1 modules) and a DataMatrix symbol's L and clock track blur into dark
// blobs, and neither gozxing's finder search nor ours starts. The blur is a linear filter
// whose response at the modules' frequency (a third of a cycle per pixel) is still about a
// sixth: with little noise the modules come back by deconvolution. A small matrix candidate
// that read in no pass is deconvolved around itself (van Cittert iterations for a Gaussian
// of σ deblurSigma) and read again as the later pass reads one. Under noise of a few
// levels, a symbol of 25 % contrast stays under it once deconvolved (docs/codes.md).

const (
	deblurSigma = 0.9 // px of the frame: σ 0.8 over the print's resampling
	deblurIters = 8   // van Cittert iterations (gain about 1 + iterations at the modules' frequency)
	// deblurMaxSide is the largest crop side (2s, frame px) of a candidate deblurred: the
	// modules that blur loses are a symbol's smallest (a version-2 QR symbol of 1.5-px
	// modules with its quiet zone is about 45 px, plus the crop's margin).
	deblurMaxSide = 160
)

// decodeDeblurred reads matrix candidate r of g deconvolved (deblurAround), plain then
// equalised (the later pass's reads), when its crop is small enough that blur can have
// taken its modules.
func (d *Decoder) decodeDeblurred(g *gray, r region) (Result, bool) {
	s, _ := cropSpan(r)
	if 2*s > deblurMaxSide || d.expired() {
		return Result{}, false
	}
	sub, q := deblurAround(g, r, s)
	var cc matrixCrops
	return d.decodeMatrix(&sub, q, laterPass, &cc)
}

// deblurAround returns the part of g that r's crop of half side s takes in (turned: a
// square of half side s·√2 + 2 about its centre) deconvolved for a Gaussian blur of
// deblurSigma, and r moved into it.
func deblurAround(g *gray, r region, s float64) (gray, region) {
	h := int(math.Ceil(s*math.Sqrt2)) + 2
	x0, y0 := max(0, int(r.cx)-h), max(0, int(r.cy)-h)
	x1, y1 := min(g.w, int(r.cx)+h+1), min(g.h, int(r.cy)+h+1)
	w, ht := max(1, x1-x0), max(1, y1-y0)
	obs := make([]float32, w*ht)
	for y := range ht {
		for x := range w {
			obs[y*w+x] = float32(g.pix[(y0+y)*g.w+x0+x])
		}
	}
	k := gaussianKernel(deblurSigma)
	est := append([]float32(nil), obs...)
	blurred := make([]float32, len(obs))
	tmp := make([]float32, len(obs))
	for range deblurIters {
		convolveSeparable(est, blurred, tmp, w, ht, k)
		for i := range est {
			est[i] += obs[i] - blurred[i]
		}
	}
	out := gray{w: w, h: ht, pix: make([]byte, len(est))}
	for i, v := range est {
		out.pix[i] = byte(max(0, min(255, math.Round(float64(v)))))
	}
	r.cx -= float64(x0)
	r.cy -= float64(y0)
	r.grown = nil
	return out, r
}

// gaussianKernel returns the normalised 1D Gaussian of σ sigma over ±3σ.
func gaussianKernel(sigma float64) []float32 {
	n := int(math.Ceil(3 * sigma))
	k := make([]float32, 2*n+1)
	var sum float64
	for i := -n; i <= n; i++ {
		sum += math.Exp(-float64(i*i) / (2 * sigma * sigma))
	}
	for i := -n; i <= n; i++ {
		k[i+n] = float32(math.Exp(-float64(i*i)/(2*sigma*sigma)) / sum)
	}
	return k
}

// convolveSeparable writes src (w×h) convolved with k along both axes into dst, edges
// clamped; tmp is scratch of the same size.
func convolveSeparable(src, dst, tmp []float32, w, h int, k []float32) {
	n := len(k) / 2
	for y := range h {
		row := src[y*w : (y+1)*w]
		for x := range w {
			var s float32
			for i, kv := range k {
				s += kv * row[min(max(x+i-n, 0), w-1)]
			}
			tmp[y*w+x] = s
		}
	}
	for y := range h {
		for x := range w {
			var s float32
			for i, kv := range k {
				s += kv * tmp[min(max(y+i-n, 0), h-1)*w+x]
			}
			dst[y*w+x] = s
		}
	}
}
