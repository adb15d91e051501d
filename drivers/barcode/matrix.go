package barcode

import (
	"math"
	"time"

	"github.com/makiuchi-d/gozxing"
)

// The matrix candidates' crops (scanLevel's passes) and gozxing's 2D readers on them.

// matrixPass is one pass of scanLevel over the matrix candidates.
type matrixPass int

const (
	plainPass     matrixPass = iota // the upright crop: QR (gozxing, then our sampler), our DataMatrix reader
	equalisedPass                   // the crop with its local contrast equalised, to gozxing's 2D readers
	magnifiedPass                   // faint QR, then small symbols magnified (the best candidate only)
	laterPass                       // the next candidates in rank, plain then equalised, when nothing read
	smoothedPass                    // the first candidates smoothed against sensor noise, when nothing read
	grownPass                       // the first candidates' grown regions, plain then equalised, when nothing read
	deblurredPass                   // the first small candidates deconvolved, plain then equalised, when nothing read
	fittedPass                      // the first small candidates read by fitting their blurred modules, when nothing read
	dmRestPass                      // under a time budget, the rest of our DataMatrix reader's search on the small candidates it looked at quickly
	matrixPasses
)

// candidates returns the ranks of the matrix candidates a pass tries, best first: from
// first+1 to last. The later pass reaches the candidates the others leave out (a faint
// symbol that ranks below four busy clutter clusters); Decode gets there only when nothing
// read, so a frame that reads costs no more, and one that does not pays up to four crops more.
func (p matrixPass) candidates() (first, last int) {
	switch p {
	case magnifiedPass:
		return 0, 1
	case laterPass:
		return 4, 8
	case smoothedPass, deblurredPass:
		return 0, 2
	case fittedPass:
		return 0, fitRanks
	}
	return 0, 4
}

// decodeMatrix resamples a matrix candidate upright (module grid on the axes), with a
// margin for the quiet zone, then runs gozxing's QR and DataMatrix readers on that crop
// alone, as the pass says: the plain crop at about 240 pixels (kept in cc for the next
// passes), its local contrast equalised, or, for small or soft symbols, magnified 4× (gozxing's
// binarizer and finder-pattern search want modules several pixels wide), plain and sharpened
// (unsharp mask over about two source pixels) against lens blur.
func (d *Decoder) decodeMatrix(g *gray, r region, pass matrixPass, cc *matrixCrops) (Result, bool) {
	if pass == dmRestPass {
		return d.decodeDMRest(cc)
	}
	s, k0, crop, ok := cc.make(g, r)
	if !ok {
		return Result{}, false
	}
	k1 := min(4, 640/(2*s))
	c := cc.plain
	switch pass {
	case plainPass:
		// QR first (gozxing's finder search fails fast on other crops), then, unless
		// three QR finder patterns were found, our DataMatrix reader (dm_*.go, the
		// costlier); gozxing's DataMatrix detector gets the contrast-equalised crops of
		// the next pass.
		d.qrFinders = false
		if res, ok := d.decode2DOnly(c, QRCode); ok {
			return res, true
		}
		finders := d.qrFinders // on the plain crop: the equalised one shows spurious ones
		// Equalised over about three modules' worth of crop (faded print, grey ink, a
		// shadow edge across the symbol): cheap, and it reads many a QR symbol that would
		// otherwise wait for every other candidate's DataMatrix search.
		if d.fits2D(c.w * c.h) {
			if res, ok := d.decode2D(cc.equalised(), true); ok {
				return res, true
			}
		}
		if finders || !d.wantDM(c) {
			return Result{}, false // a QR symbol that did not read yet: not a DataMatrix one
		}
		if d.deadline.IsZero() || d.opt.Budget < dmSplitBudget || !fitSmall(r) {
			return d.decodeDM(dmCrop(c, crop, s))
		}
		// Under a long time budget (a camera's Full frame), a small candidate gets our
		// reader's quick look only; the rest of its search waits until after the fitted pass
		// (dmRestPass), which reads the blurred small modules that the rest rarely reads,
		// within the budget.
		if cc.dm = d.newDMSearch(dmCrop(c, crop, s)); cc.dm == nil {
			return Result{}, false
		}
		return d.dmQuick(cc.dm)

	case equalisedPass:
		return d.decodeEqualised(cc, r, s, crop)
	case laterPass:
		if res, ok := d.decodeMatrix(g, r, plainPass, cc); ok {
			return res, true
		}
		if res, ok := d.decodeDMRest(cc); ok {
			return res, true
		}
		return d.decodeEqualised(cc, r, s, crop)
	case smoothedPass:
		// Faint ink among busy clutter joins its cluster, which is then not found over
		// the lower floor only: our DataMatrix reader on the equalised crop, as the
		// equalised pass does for a faint candidate, then the crop smoothed.
		if !r.faint {
			if res, ok := d.decodeDMEqualised(cc, s, crop); ok {
				return res, true
			}
		}
		// A hard shadow edge across the symbol: the crop smoothed over a third of a module
		// and divided by the paper's level (gray_light.go), to gozxing's 2D readers and
		// ours, when the paper's level is uneven enough.
		if d.expired() {
			return Result{}, false
		}
		if f, uneven := c.flatten(max(3, int(0.04*float64(c.w)))); uneven {
			if res, ok := d.decode2D(&f, true); ok {
				return res, true
			}
			if res, ok := d.decodeDMFlat(c, s, crop); ok {
				return res, true
			}
		}
		if res, ok := d.decodeSmoothed(c, 3); ok {
			return res, true
		}
		// A textured candidate (a faint symbol under strong noise, modules of 1.75–2.2 px
		// magnified 4–5×): smoothed over 5×5 too, about a module, which keeps the module
		// grid that the 7×7 box blurs at those scales.
		if r.textured && !d.expired() {
			if res, ok := d.decodeSmoothed(c, 2); ok {
				return res, true
			}
		}
		// A candidate too large or too elongated to magnify is read in parts: a small
		// symbol merged with clutter beside it. Another is magnified unless it is the best
		// one, which the magnified pass had: a small symbol can rank second to a cluster of
		// clutter.
		best := !d.smoothedBestDone
		d.smoothedBestDone = true
		if parts := candidateParts(r); len(parts) > 0 {
			return d.decodeParts(g, parts)
		}
		if best {
			return Result{}, false
		}
		return d.decodeMatrix(g, r, magnifiedPass, cc)
	}
	// Faint QR ink under sensor noise (qr_grid.go): on the best candidate only, with the
	// costly attempts.
	if n := int(2 * s * k0); d.opt.Formats&QRCode != 0 && d.fits2D(n*n) {
		faint := crop(k0)
		if res, ok := d.decodeQRFaint(&faint); ok {
			return res, true
		}
		// Finders whose runs broke (1.5–1.75-px modules under noise, JPEG, blur at low
		// contrast): found by correlation with their template (qr_finders.go).
		if res, ok := d.decodeQRCorr(g, r, &faint, s, k0); ok {
			return res, true
		}
	}
	// Only small symbols need magnifying; on a large busy region (noise, a page of text)
	// gozxing's finder-pattern search turns cubic in its candidates and costs seconds.
	// Matrix symbols are square: an elongated cluster (a line of text) is not worth it.
	if 2*s > 320 || max(r.halfU, r.halfV) > 1.8*min(r.halfU, r.halfV) {
		return Result{}, false
	}
	// Two or three reads of the magnified crop: when the first would be refused, so would
	// the others (charged as they would be).
	if n, reads := int(2*s*k1), 2; !d.fits2D(n * n) {
		if k1 > k0*1.2 {
			reads++
		}
		d.budget -= (reads - 1) * n * n
		return Result{}, false
	}
	m := crop(k1)
	if k1 > k0*1.2 {
		if res, ok := d.decode2D(&m, true); ok {
			return res, true
		}
	}
	m = m.sharpen(max(1, int(2*k1)), 1.5)
	if res, ok := d.decode2D(&m, true); ok {
		return res, true
	}
	// A global threshold sometimes holds where the local one breaks up soft modules.
	return d.decode2DWith(&m, true, gozxing.NewGlobalHistgramBinarizer)
}

// dmSplitBudget is the shortest time budget under which our DataMatrix reader's search on a
// small candidate is cut after its quick look (dmQuick) and goes on after the fitted pass: a
// camera's Full frame (40 ms), where the fitted pass (20–30 ms of CPU on a symbol) fits; in
// its Quick frames (6 ms) the fitted pass does not, and the whole search is the best use of
// the time.
const dmSplitBudget = 20 * time.Millisecond

// decodeDMRest goes on with our DataMatrix reader's search that the plain pass cut after its
// quick look (dmQuick), once.
func (d *Decoder) decodeDMRest(cc *matrixCrops) (Result, bool) {
	st := cc.dm
	if st == nil {
		return Result{}, false
	}
	cc.dm = nil
	return d.dmRest(st)
}

// decodeEqualised reads a matrix candidate's plain crop with its local contrast equalised: over
// about three modules' worth of crop with our DataMatrix reader when the candidate is faint
// (gozxing's readers had that crop in the plain pass), then over about one module and a half
// (a glare spot's halo, a steep shadow) with gozxing's.
func (d *Decoder) decodeEqualised(cc *matrixCrops, r region, s float64, crop func(k float64) gray) (Result, bool) {
	// A faint symbol (found over the lower floor only) through our DataMatrix reader:
	// equalised, its ink stands out of the paper's noise.
	if r.faint {
		if res, ok := d.decodeDMEqualised(cc, s, crop); ok {
			return res, true
		}
	}
	if !d.fits2D(cc.plain.w * cc.plain.h) {
		return Result{}, false
	}
	n := cc.plain.normalize(max(4, int(0.03*float64(cc.plain.w))), 10)
	return d.decode2D(&n, true)
}

// decodeDMEqualised reads a candidate's equalised crop with our DataMatrix reader (a crop
// over its size limit made again smaller, then equalised).
func (d *Decoder) decodeDMEqualised(cc *matrixCrops, s float64, crop func(k float64) gray) (Result, bool) {
	if !d.wantDM(cc.plain) {
		return Result{}, false
	}
	if c := dmCrop(cc.plain, crop, s); c != cc.plain {
		// Made again smaller, then equalised: the equalised crop at full size would only
		// be thrown away.
		e := c.equalise()
		return d.decodeDM(&e)
	}
	return d.decodeDM(cc.equalised())
}

// decodeDMFlat reads a candidate's plain crop c smoothed and flattened (gray.flatSmoothed)
// with our DataMatrix reader (a crop over its size limit made again smaller first, as
// dmCrop does: the full-size one would only be thrown away).
func (d *Decoder) decodeDMFlat(c *gray, s float64, crop func(k float64) gray) (Result, bool) {
	if !d.wantDM(c) {
		return Result{}, false
	}
	f, _ := dmCrop(c, crop, s).flatSmoothed()
	return d.decodeDM(&f)
}

// matrixCrops are a matrix candidate's crops, made once and kept for the later passes.
type matrixCrops struct {
	plain *gray     // upright at about 240 pixels, contrast-stretched (decodeMatrix)
	eq    *gray     // plain equalised over about three modules (equalised)
	dm    *dmSearch // our DataMatrix reader's search that the plain pass cut (dmRestPass)
}

// make makes the plain crop of candidate r of g unless made already. It returns the crop's
// half side in frame pixels, its scale and how to crop the candidate at another scale, or
// false when the candidate is too small or too large to read, or sensor noise.
func (cc *matrixCrops) make(g *gray, r region) (s, k0 float64, crop func(k float64) gray, ok bool) {
	s, k0 = cropSpan(r)
	crop = func(k float64) gray { return matrixCropAt(g, r, s, k) }
	if 2*s*k0 < 24 || 2*s > 1200 {
		return 0, 0, nil, false
	}
	if cc.plain == nil {
		// Sensor noise, not print; unless the region's texture stands out of the noise
		// (a faint symbol under strong noise: its neighbours correlate 0.2–0.35).
		if !r.textured && g.neighbourCorr(int(r.cx-s), int(r.cy-s), int(r.cx+s), int(r.cy+s)) < minNeighbourCorr {
			return 0, 0, nil, false
		}
		c := crop(k0)
		cc.plain = &c
	}
	return s, k0, crop, true
}

// decodeFaintFlat reads a faint matrix candidate ranked beyond the smoothed pass's first
// ones (faint ink scores low beside clutter) with our DataMatrix reader on its crop
// smoothed and flattened: the paper's level is uneven across a crop that takes in the
// desk's edge, and the equalised crops break faint ink up.
func (d *Decoder) decodeFaintFlat(g *gray, r region, cc *matrixCrops) (Result, bool) {
	s, _, crop, ok := cc.make(g, r)
	if !ok || !d.wantDM(cc.plain) {
		return Result{}, false
	}
	return d.decodeDMFlat(cc.plain, s, crop)
}

// equalised returns the plain crop equalised (gray.equalise), made on first use: the plain
// pass reads it with gozxing's readers, later passes with our DataMatrix reader.
func (cc *matrixCrops) equalised() *gray {
	if cc.eq == nil {
		n := cc.plain.equalise()
		cc.eq = &n
	}
	return cc.eq
}

// decodeSmoothed reads a matrix candidate's crop c whose ink is faint under sensor noise
// (contrast 25–50 levels under noise of σ 5–7: a pixel in thirty on the wrong side of any
// threshold, enough to break finder runs and overwhelm Reed–Solomon): smoothed over a 7×7
// box, about a module and a half of a 240-pixel crop, then equalised over a tenth of it,
// through gozxing's 2D readers and our DataMatrix reader. radius is the box's (3: 7×7).
func (d *Decoder) decodeSmoothed(c *gray, radius int) (Result, bool) {
	read2D := d.fits2D(c.w * c.h) // charged when refused
	// Our DataMatrix reader refuses crops over dmMaxCrop (a large candidate's crop).
	readDM := c.w <= dmMaxCrop && c.h <= dmMaxCrop && d.wantDM(c)
	if !read2D && !readDM {
		return Result{}, false
	}
	b := c.boxMean(radius)
	b.stretch()
	n := b.normalize(max(6, int(0.1*float64(b.w))), 10)
	if read2D {
		if res, ok := d.decode2D(&n, true); ok {
			return res, true
		}
	}
	if !readDM {
		return Result{}, false
	}
	return d.decodeDM(&n)
}

// candidateParts returns the parts to read of a matrix candidate too large for the
// magnified pass, or none: a small symbol whose cluster took in clutter beside it (a block
// of dot-matrix text, a striped mat) makes a crop in which it is a few pixels per module
// and which is too large to magnify. An elongated candidate is read as the two squares at
// the ends of its long side, a large square one as its four overlapping quarters.
func candidateParts(r region) []region {
	long, short := max(r.halfU, r.halfV), min(r.halfU, r.halfV)
	ux, uy := math.Cos(r.angle), math.Sin(r.angle)
	vx, vy := -uy, ux
	var parts []region
	switch s, _ := cropSpan(r); {
	case long >= 1.5*short:
		if r.halfV > r.halfU {
			ux, uy = vx, vy
		}
		for _, sign := range []float64{-1, 1} {
			e := r
			e.halfU, e.halfV = short, short
			e.cx += sign * (long - short) * ux
			e.cy += sign * (long - short) * uy
			parts = append(parts, e)
		}
	case 2*s > 320:
		for _, q := range [][2]float64{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
			e := r
			e.halfU, e.halfV = 0.6*long, 0.6*long
			e.cx += 0.45 * (q[0]*r.halfU*ux + q[1]*r.halfV*vx)
			e.cy += 0.45 * (q[0]*r.halfU*uy + q[1]*r.halfV*vy)
			parts = append(parts, e)
		}
	}
	return parts
}

// decodeParts reads the parts of a candidate (candidateParts), each magnified to about 360
// pixels so that a small symbol's modules span several: every part plain through gozxing's 2D
// readers, then every part equalised, then every part through our DataMatrix reader (part
// after part within each reader: the symbol's part gets the cheaper reads first). The parts
// spend the frame's parts budget, not the pass's, so that a large candidate read in parts
// does not starve the candidates after it.
func (d *Decoder) decodeParts(g *gray, parts []region) (Result, bool) {
	d.budget, d.partsBudget = d.partsBudget, d.budget
	defer func() { d.budget, d.partsBudget = d.partsBudget, d.budget }()
	crops, spans := make([]gray, len(parts)), make([]float64, len(parts))
	for i, e := range parts {
		if d.expired() {
			return Result{}, false
		}
		s, _ := cropSpan(e)
		crops[i], spans[i] = matrixCropAt(g, e, s, min(4, partSide/(2*s))), s
		if res, ok := d.decode2D(&crops[i], true); ok {
			return res, true
		}
	}
	for i := range parts {
		if !d.fits2D(crops[i].w * crops[i].h) {
			continue
		}
		n := crops[i].equalise()
		if res, ok := d.decode2D(&n, true); ok {
			return res, true
		}
	}
	for i, e := range parts {
		s := spans[i]
		if res, ok := d.decodeDM(dmCrop(&crops[i], func(k float64) gray { return matrixCropAt(g, e, s, k) }, s)); ok {
			return res, true
		}
	}
	return Result{}, false
}

// partSide is the side in pixels of a part's magnified crop (decodeParts).
const partSide = 360

// partsBudget is the crop pixels a frame may hand to gozxing's 2D readers for the parts of
// its candidates (decodeParts): the plain and equalised crops of the four parts of one
// square candidate.
const partsBudget = 8 * partSide * partSide

// smoothedBudget is the crop pixels the smoothed pass may hand to gozxing's 2D readers when
// the earlier passes have spent the frame's budget.
const smoothedBudget = 850_000

// lateBudget is the crop pixels the grown pass, and then the halved level's candidates
// (scanHalf), may each hand to gozxing's 2D readers when the passes before have spent the
// frame's budget: eight crops of about 240 pixels.
const lateBudget = 8 * 240 * 240

// halfCandidates is the number of faint matrix candidates of the halved level that
// scanHalf reads.
const halfCandidates = 3

// minMatrixScore is the share of the best matrix candidate's score under which a matrix
// candidate is not tried.
const minMatrixScore = 0.1

// lowCandidates is the number of matrix candidates under minMatrixScore that the pass
// tries, best first (the later passes only, which run when nothing else read).
func (p matrixPass) lowCandidates() int {
	switch p {
	case laterPass:
		return 4
	case smoothedPass, grownPass:
		return 2
	}
	return 0
}

// cropSpan returns the half side s of a matrix candidate's upright crop in frame pixels
// (the region with a margin for the quiet zone) and the scale k0 of its first crop (about
// 240 pixels).
func cropSpan(r region) (s, k0 float64) {
	s = max(r.halfU, r.halfV)
	s += max(0.3*s, 12)
	return s, min(4, max(1, 240/(2*s)))
}

// matrixCropAt resamples the square of half side s around a matrix candidate upright (its
// module grid on the axes), k crop pixels per frame pixel, contrast-stretched.
func matrixCropAt(g *gray, r region, s, k float64) gray {
	cos, sin := math.Cos(r.angle), math.Sin(r.angle)
	ox := r.cx - s*(cos-sin)
	oy := r.cy - s*(sin+cos)
	n := int(2 * s * k)
	c := g.resample(ox, oy, cos/k, sin/k, -sin/k, cos/k, n, n)
	c.stretch()
	return c
}

// fits2D reports whether a crop of px pixels would get through decode2DWith's checks (the
// frame's 2D pixel budget, the time budget), so that the crop (resampled, equalised,
// smoothed, sharpened: a whole-crop filter, up to tens of ms on a 1,200-px crop) is made
// only when it will be read. When it would not, px is charged as decode2DWith charges a
// crop it refuses, so the budget runs down as before.
func (d *Decoder) fits2D(px int) bool {
	if d.budget-px < 0 || !d.affords(px) {
		d.budget -= px
		return false
	}
	return true
}

// wantDM reports whether our DataMatrix reader is to run on crop c (made smaller to
// dmMaxCrop when larger): the format enabled and time left for it (affords, at the rate of
// gozxing's readers, which our reader's search roughly matches per pixel), so that its crops
// (made smaller, equalised, flattened) are made only then.
func (d *Decoder) wantDM(c *gray) bool {
	return d.opt.Formats&DataMatrix != 0 && d.affords(min(c.w, dmMaxCrop)*min(c.h, dmMaxCrop))
}

func (d *Decoder) decode2D(g *gray, located bool) (Result, bool) {
	return d.decode2DWith(g, located, gozxing.NewHybridBinarizer)
}

func (d *Decoder) decode2DWith(g *gray, located bool, binarizer func(gozxing.LuminanceSource) gozxing.Binarizer) (Result, bool) {
	// gozxing's 2D search costs about its image area (more on busy crops): each frame gets a
	// budget of pixels, so that a frame full of clutter stays within a camera frame time.
	if d.budget -= g.w * g.h; d.budget < 0 || !d.affords(g.w*g.h) {
		return Result{}, false
	}
	defer d.learn(d.now, g.w*g.h)
	src, err := gozxing.NewPlanarYUVLuminanceSource(g.pix, g.w, g.h, 0, 0, g.w, g.h, false)
	if err != nil {
		return Result{}, false
	}
	bmp, err := gozxing.NewBinaryBitmap(binarizer(src))
	if err != nil {
		return Result{}, false
	}
	if d.opt.Formats&QRCode != 0 {
		res, err := d.qr.Decode(bmp, nil)
		if err == nil {
			if r, ok := d.result(res, located); ok {
				return r, true
			}
		}
		// No valid symbol through gozxing's transform: perhaps a false alignment pattern
		// (decodeQRAffine). Each of gozxing's readers costs up to tens of ms on a large
		// busy crop: the budget is looked at again between them.
		if located && !d.expired() {
			if r, ok := d.decodeQRAffine(g, bmp); ok {
				return r, true
			}
		}
	}
	if d.opt.Formats&DataMatrix != 0 && !d.expired() {
		if res, err := d.dm.Decode(bmp, nil); err == nil {
			if r, ok := d.result(res, located); ok {
				return r, true
			}
		}
	}
	return Result{}, false
}

// matrixBudget is the number of crop pixels a frame may hand to gozxing's 2D readers:
// about twenty-six 240-pixel crops or three and a half at 640 pixels (≈ 30 ms on this
// machine's cores; 1.4·10⁶ before the faint-QR attempt took its share); candidates beyond it
// are skipped.
const matrixBudget = 1_500_000

// minNeighbourCorr is the adjacent-pixel correlation under which a region is taken for
// noise (gray.neighbourCorr): printed symbols photographed measure 0.6 and more.
const minNeighbourCorr = 0.35
