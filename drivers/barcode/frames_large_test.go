package barcode

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"math/rand/v2"
)

// Large frames (class "large"): what a phone camera gives, as the field reports describe it.
// The frame is 1600×1200 or 3000×2250 pixels (2 and 6.75 megapixels); the symbol (from zint,
// on the camera generator's desk and ticket, seen through a wider lens) has modules of 4–20
// pixels and, with its quiet zone, spans 20–80 % of the frame's shorter side where those
// modules allow it; tilt up to 15°, any rotation; a sharp lens (defocus of at most a pixel
// or two), mild vignetting and shot noise; then the phone's processing: an unsharp mask
// (halos beside every edge) and JPEG at quality 70–95 with 4:2:0 chroma (image/jpeg's only
// colour mode).

// largeSizes are the large frames' sizes.
var largeSizes = [][2]int{{1600, 1200}, {3000, 2250}}

// largeSeed seeds the large frames: frame i of format f uses PCG(largeSeed, f<<32|i).
const largeSeed = camSeed + 3

// largeFrameAt makes large frame i of format f; rot, when given, fixes the rotation to
// rot[0] ± 3°.
func largeFrameAt(f Format, i int, rot ...float64) (camFrame, string, error) {
	rng := rand.New(rand.NewPCG(largeSeed, uint64(f)<<32|uint64(i)))
	text := codeText(rng, f)
	cf, err := makeLargeFrame(rng, f, text, rot...)
	return cf, text, err
}

// largeModule draws the module size of a large frame's symbol: uniform over the sizes
// that keep it within 4–20 pixels and its extent (quiet zone included) within 20–80 % of
// the frame's shorter side; the nearest to those bounds where no size satisfies both.
func largeModule(rng *rand.Rand, s *symbolLayout, p *camParams) float64 {
	ext := max(s.w, s.h) + 2*s.q
	short := float64(min(p.W, p.H))
	lo, hi := max(4, 0.2*short/ext), min(20, 0.8*short/ext)
	if lo > hi {
		lo, hi = min(lo, 20), min(lo, 20)
	}
	m := lo + (hi-lo)*rng.Float64()
	p.Fill = m * ext / short
	return m
}

// makeLargeFrame draws a large frame holding text as f (text "": the desk alone).
func makeLargeFrame(rng *rand.Rand, f Format, text string, rot ...float64) (camFrame, error) {
	sz := largeSizes[rng.IntN(len(largeSizes))]
	p := camParams{Class: camLarge.String(), W: sz[0], H: sz[1]}
	fr := newRGBF(p.W, p.H)
	deskBlotches(fr, rng)
	deskClutter(fr, rng)
	if text != "" {
		m, err := zintSymbol(f, text)
		if err != nil {
			return camFrame{}, err
		}
		if err := drawCamTicket(fr, rng, f, m, camLarge, &p, rot...); err != nil {
			return camFrame{}, err
		}
	}
	// A phone lens is sharp: no defocus, or one or two binomial passes (σ 0.7 or 1 px).
	passes := rng.IntN(3)
	p.Defocus = float64(passes)
	for range passes {
		boxBlur3(fr)
	}
	out := expose(fr, rng, 0.1+0.2*rng.Float64(), 0.08+0.17*rng.Float64())
	p.Sharpen = 0.5 + rng.Float64()
	sharpenRGBA(out, p.Sharpen, 1+rng.IntN(2))
	p.JPEG = 70 + rng.IntN(26)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, out, &jpeg.Options{Quality: p.JPEG}); err != nil {
		return camFrame{}, fmt.Errorf("large frame: %w", err)
	}
	img, err := jpeg.Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		return camFrame{}, fmt.Errorf("large frame: %w", err)
	}
	return camFrame{img: img, jpeg: buf.Bytes(), p: p}, nil
}

// sharpenRGBA applies a phone's unsharp mask to img in place: each level moves away from its
// neighbourhood's mean (passes of a 3×3 binomial blur: radius about 1 or 1.4 pixels) by
// amount times the difference, clipped: the bright and dark halos beside every edge.
func sharpenRGBA(img *image.RGBA, amount float64, passes int) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	fr := &rgbf{w: w, h: h, pix: blurScratch(3 * w * h)} // every float set below
	defer blurTmp.Put(&fr.pix)
	for i := range w * h {
		for c := range 3 {
			fr.pix[3*i+c] = float64(img.Pix[4*i+c])
		}
	}
	for range passes {
		boxBlur3(fr)
	}
	for i := range w * h {
		for c := range 3 {
			v := float64(img.Pix[4*i+c])
			img.Pix[4*i+c] = byte(max(0, min(255, math.Round(v+amount*(v-fr.pix[3*i+c])))))
		}
	}
}

// largeSource adapts the large frames to measureSet.
func largeSource(f Format) func(int) (sourceFrame, error) {
	return func(i int) (sourceFrame, error) {
		cf, text, err := largeFrameAt(f, i)
		if err != nil {
			return sourceFrame{}, err
		}
		return sourceFrame{img: cf.img, text: text, class: cf.p.Class, file: cf.jpeg, ext: "jpg",
			info: fmt.Sprintf("large frame %d %+v", i, cf.p)}, nil
	}
}
