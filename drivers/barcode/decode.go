package barcode

import (
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/datamatrix"
	dmdecoder "github.com/makiuchi-d/gozxing/datamatrix/decoder"
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

// ErrBudget is returned when the time budget (Options.Budget) ran out before anything
// read; errors.Is(err, ErrNotFound) holds too.
var ErrBudget = fmt.Errorf("%w: time budget spent", ErrNotFound)

// Options restrict what a Decoder looks for.
type Options struct {
	// Formats to read; zero means DefaultFormats.
	Formats Format
	// ITFLengths lists the accepted ITF lengths in digits (ITF has no checksum of its own,
	// so a length filter is what keeps clutter from reading as ITF). Nil: any even length ≥ 6.
	ITFLengths []int
	// Code128Digits lists the lengths, in digits, of the all-digit Code 128 symbols (set C
	// throughout: a start, a character per two digits, the check) that are also read by
	// fitting their blurred profile when their edges are lost (c128_profile.go). Nil: none.
	Code128Digits []int
	// Budget bounds the time one Decode or DecodeAll spends on a frame: past it the decoder
	// gives up at the next step (a band, a crop, a few rows; budget.go) and returns what it
	// read so far, or ErrBudget (also an ErrNotFound). Zero: no limit. A camera's frames
	// take a budget each from a Cadence (Stream; scanner.CameraDecoder: 40 ms one frame in
	// four, 6 ms the others; docs/codes.md, Speed).
	Budget time.Duration
	// Clock measures the budget; nil is the real clock.
	Clock clockwork.Clock
}

// DefaultFormats are the terminal's codes (docs/codes.md): Code 128 pack codes, ITF ticket
// codes and QR validation codes.
const DefaultFormats = Code128 | ITF | QRCode

// DefaultOptions returns the terminal's options: DefaultFormats, ITF held to the ticket
// code's 14 digits, Code 128 fitted at the pack code's 12. Each call returns a fresh value (no package state to change).
func DefaultOptions() Options {
	return Options{Formats: DefaultFormats, ITFLengths: []int{14}, Code128Digits: []int{12}}
}

// Decoder reads codes from images. It is not safe for concurrent use; Decode is.
type Decoder struct {
	opt     Options
	code128 rowDecoder
	itf     rowDecoder
	qr      *qrcode.QRCodeReader
	dm      *datamatrix.DataMatrixReader
	dmDec   *dmdecoder.Decoder
	row     *gozxing.BitArray
	budget  int // crop pixels left for the 2D readers in this frame
	// partsBudget is the crop pixels left for the parts of large candidates (decodeParts).
	partsBudget int
	// qrFinders is set when decodeQRAffine found three finder patterns that make a QR
	// symbol's grid (whether or not it read).
	qrFinders bool
	// smoothedBestDone is set once the smoothed pass has had its best candidate (decodeMatrix).
	smoothedBestDone bool
	clock            clockwork.Clock
	deadline         time.Time // zero: no budget
	expiredOnce      bool      // the budget ran out in this frame
	// now is the clock's last reading (expired); gaveUp is set when a step was skipped
	// because it would not end within the budget (affords).
	now    time.Time
	gaveUp bool
	// perPixel is the time gozxing's 2D readers have taken per pixel of a large crop of
	// late (a running mean; budget.go).
	perPixel float64
	// fitPerPixel is the time a full least-squares fit of a grid (fitModules with
	// fitMargins) has taken per pixel of the symbol's area of late (a running mean;
	// readFitted, budget.go).
	fitPerPixel float64
	// itfReads is the ITF texts the bands read in this frame, each where it lay (itfBandRead):
	// two texts read on the same bars refuse each other (itfConflict).
	itfReads []itfBandRead
	// noRepairs is set while the turned retry reads: no Code 128 character is taken other
	// than as its distances read it (linear_turn.go).
	noRepairs bool
	// chaseLeft is the words Chase's search may still try in this frame (readFittedChase).
	chaseLeft int
	// disputed is set by decodeBits when the Code 128 it read disagrees with our
	// similar-edge reading of a character (code128Agrees).
	disputed bool
	// smoothedBands is set while the smoothed pass reads a linear candidate
	// (decodeLinearSmoothed): an ITF read there needs a third band (smoothedITFBands).
	smoothedBands bool
	// dmLate are the DataMatrix hypotheses our reader sampled and did not read in this
	// frame, for the least-squares reads after every other step (dm_lsq.go).
	dmLate      []dmLateHyp
	dmLateQuads []dmLateQuad // the first outlines our reader looked at, for the same
	// fitsLater is set while the plain pass reads a linear candidate: the bands' profile
	// fits (edgeRow: a blurred Code 128 or ITF, tens of ms on a block of print) wait until
	// every candidate had its cheap reads, so that a budget is not spent on them first;
	// fitsSkipped is set when a band would have been fitted (scanLevel reads the candidate
	// again, fits included, after the plain pass).
	fitsLater, fitsSkipped bool
	bandFits               int // the bands fitted (edgeRow), counted for the tests
	// noFit leaves the fitted pass out (matrix_fit.go), for the tests that show what it reads;
	// fitLate keeps it last under a budget too (matrixPassOrder), for those that show when;
	// noOSD leaves ordered statistics out of the fitted reads (readFittedChase), for the
	// tests that show what the fits read without them.
	noFit, fitLate, noOSD bool
}

type rowDecoder interface {
	DecodeRow(rowNumber int, row *gozxing.BitArray, hints map[gozxing.DecodeHintType]interface{}) (*gozxing.Result, error)
}

// NewDecoder returns a decoder for opt.
func NewDecoder(opt Options) *Decoder {
	if opt.Formats == 0 {
		opt.Formats = DefaultFormats
	}
	clock := opt.Clock
	if clock == nil {
		clock = clockwork.NewRealClock()
	}
	return &Decoder{
		clock:   clock,
		opt:     opt,
		code128: oned.NewCode128Reader().(rowDecoder),
		itf:     oned.NewITFReader().(rowDecoder),
		qr:      qrcode.NewQRCodeReader().(*qrcode.QRCodeReader),
		dm:      datamatrix.NewDataMatrixReader(),
	}
}

var pool = sync.Pool{New: func() any { return NewDecoder(DefaultOptions()) }}

// Decode finds and decodes one code of the default options (DefaultOptions) anywhere in img.
func Decode(img image.Image) (Result, error) {
	d := pool.Get().(*Decoder)
	defer pool.Put(d)
	return d.Decode(img)
}

// Decode finds and decodes one code of the decoder's formats anywhere in img: first in the
// regions the locator proposes, best first, then with gozxing's full-frame detectors.
func (d *Decoder) Decode(img image.Image) (Result, error) {
	var res Result
	err := d.scan(img, func(r Result) bool { res = r; return false })
	if err != nil {
		return Result{}, err
	}
	if res.Text == "" {
		return Result{}, ErrNotFound
	}
	return res, nil
}

// DecodeAll returns every distinct symbol (format and text) it finds in img, in the order
// found; ErrNotFound when there is none. It tries every candidate region where Decode
// stops at the first read, so it costs more.
func (d *Decoder) DecodeAll(img image.Image) ([]Result, error) {
	var all []Result
	err := d.scan(img, func(r Result) bool {
		for _, a := range all {
			if a.Format == r.Format && a.Text == r.Text {
				return true
			}
		}
		all = append(all, r)
		return true
	})
	if err != nil {
		return nil, err
	}
	if len(all) == 0 {
		return nil, ErrNotFound
	}
	return all, nil
}

// scan hands each symbol read to emit until emit returns false. A region that reads is not
// tried again; the full-frame fallback runs only when no region read.
func (d *Decoder) scan(img image.Image, emit func(Result) bool) error {
	b := img.Bounds()
	if b.Dx() < 8 || b.Dy() < 8 {
		return fmt.Errorf("%w: image %dx%d too small", ErrNotFound, b.Dx(), b.Dy())
	}
	d.deadline, d.expiredOnce, d.gaveUp = time.Time{}, false, false
	if d.opt.Budget > 0 {
		d.deadline = d.clock.Now().Add(d.opt.Budget)
	}
	g := toGray(img)
	d.budget, d.partsBudget = matrixBudget, partsBudget
	d.chaseLeft = fitChaseFrameTrials
	d.itfReads = d.itfReads[:0]
	d.dmLate, d.dmLateQuads = d.dmLate[:0], d.dmLateQuads[:0]
	pyr := newPyramid(&g)
	found := false
	// A large photo is located on a reduced level, then on the next coarser and finer ones
	// while nothing reads (pyramid.go); a camera frame has one level, located again halved
	// for faint symbols when nothing read on it (scanHalf).
	levels := pyr.locateLevels()
	for _, l := range levels {
		if d.expired() {
			break
		}
		var stop bool
		if found, stop = d.scanLevel(pyr, l, emit); found || stop {
			break
		}
	}
	if !found && len(levels) == 1 && !d.expired() {
		found = d.scanHalf(pyr, emit)
	}
	if !found && len(levels) == 1 {
		found = d.scanTurned(&g, emit)
	}
	if !found && len(levels) == 1 {
		found = d.scanSmoothedLocate(&g, emit)
	}
	if !found && !d.expired() {
		if res, ok := d.decodeFull(img, &g); ok {
			emit(res)
			found = true
		}
	}
	// Last, the least-squares reads of the DataMatrix hypotheses and outlines our reader
	// sampled on the way and did not read (dm_lsq.go).
	if !found && !d.expired() {
		if res, ok := d.readDMLate(); ok {
			emit(res)
			found = true
		}
	}
	d.dmLate, d.dmLateQuads = d.dmLate[:0], d.dmLateQuads[:0]
	if !found && (d.expiredOnce || d.gaveUp) {
		return ErrBudget
	}
	return nil
}

// scanLevel locates candidates on pyramid level l and tries them in passes, cheapest first:
// every linear candidate (its bands' profile fits left out: fitsLater) and the plain crop of
// every matrix candidate, best first; then the matrix candidates' contrast-equalised crops;
// after the pass that follows the plain one (the equalised crops under a budget, our
// DataMatrix reader's rest without: matrixPassOrder), the linear candidates the fits were
// left out of are read again with them (refitLinear); then the costly magnified crops of
// the best one; then the plain and equalised crops of the next matrix candidates in rank and of the
// best few under the score floor; last, against sensor noise, the first linear candidates
// (and the faint ones) on the level smoothed over 3×3 pixels, the first matrix candidates'
// crops smoothed and flattened, in parts when too large or elongated to magnify, and the
// next two faint matrix candidates flattened; then the grown regions of the first matrix
// candidates, those of a faint symbol found as its core or in pieces; then the first two
// small matrix candidates deconvolved, blurred modules of 1.5 px (matrix_deblur.go); then
// the same candidates read by fitting their blurred modules, down to 25 % contrast
// (matrix_fit.go; matrixPass). The last five passes run only when nothing read before them, so a frame that
// reads early pays nothing for them. A linear candidate that does not read on a reduced level is read again one level
// finer (bars reduced to a pixel or less). It reports whether anything read and whether
// emit asked to stop.
func (d *Decoder) scanLevel(pyr *pyramid, l int, emit func(Result) bool) (found, stop bool) {
	g := pyr.level(l)
	regions := locate(g)
	read := make([]bool, len(regions))
	refit := make([]bool, len(regions))        // linear candidates whose bands' fits wait (fitsLater)
	crops := make([]matrixCrops, len(regions)) // kept for the later passes
	var smooth *gray                           // g smoothed, for the linear candidates of the smoothed pass
	bestMatrix := 0.0
	for _, r := range regions {
		if !r.linear {
			bestMatrix = max(bestMatrix, r.score)
		}
	}
	for _, pass := range d.matrixPassOrder() {
		tried1D, triedFaint, triedFaint2D, rank2D, rankLow, fitted := 0, 0, 0, 0, 0, 0
		first, last := pass.candidates()
		if pass == smoothedPass {
			d.budget = max(d.budget, smoothedBudget)
			d.smoothedBestDone = false
		}
		if pass == grownPass {
			d.budget = max(d.budget, lateBudget)
		}
		for i, r := range regions {
			// A matrix candidate an order of magnitude less symbol-like than the best is
			// mostly clutter (the symbols of the tuning frames that read scored ≥ 0.2 of the
			// best). The others are ranked, those read included, so that each pass's ranks
			// stay the same candidates.
			matrix := !r.linear && d.opt.Formats&TwoD != 0 && r.score >= minMatrixScore*bestMatrix
			if matrix {
				rank2D++
			}
			// The score sums over a cluster's cells: a large busy cluster of clutter (a
			// page of dot-matrix text) can outscore a small symbol tenfold. The later pass
			// also tries the first few candidates under the floor.
			low := !r.linear && d.opt.Formats&TwoD != 0 && !matrix && pass >= laterPass
			if low {
				rankLow++
			}
			if read[i] {
				continue
			}
			if d.expired() {
				return found, false
			}
			var res Result
			var ok bool
			if r.linear && !r.faint && pass == plainPass && d.opt.Formats&OneD != 0 && tried1D < 4 {
				tried1D++
				d.fitsLater, d.fitsSkipped = true, false
				res, ok = d.decodeLinearLevels(pyr, l, r)
				d.fitsLater, refit[i] = false, !ok && d.fitsSkipped
			}
			// Faint bars under sensor noise: the level smoothed over 3×3 pixels, which the
			// edge finders' derivatives need (the bands average along the bars only).
			if r.linear && pass == smoothedPass && d.opt.Formats&OneD != 0 && (tried1D < 4 || r.faint && triedFaint < 2) {
				if r.faint {
					triedFaint++
				} else {
					tried1D++
				}
				if smooth == nil {
					s := g.boxMean(1)
					smooth = &s
				}
				res, ok = d.decodeLinearSmoothed(smooth, r)
			}
			tried := (matrix && rank2D > first && rank2D <= last) || (low && rankLow <= pass.lowCandidates())
			if pass == grownPass {
				// A candidate that is a faint symbol's core or one of its pieces: its
				// grown regions (locate.go), read as the later pass reads a candidate.
				for _, q := range r.grown {
					if !tried {
						break
					}
					var cc matrixCrops
					if res, ok = d.decodeMatrix(g, q, laterPass, &cc); ok {
						break
					}
				}
			} else if tried && pass == deblurredPass {
				res, ok = d.decodeDeblurred(g, r)
			} else if tried && pass == fittedPass && !d.noFit && fitted < fitCandidates && fitSmall(r) {
				var searched bool
				if res, ok, searched = d.decodeFitted(g, r); searched {
					fitted++
				}
			} else if tried {
				res, ok = d.decodeMatrix(g, r, pass, &crops[i])
			} else if matrix && r.faint && pass == smoothedPass && triedFaint2D < 2 {
				triedFaint2D++
				res, ok = d.decodeFaintFlat(g, r, &crops[i])
			}
			if ok {
				read[i], found = true, true
				if !emit(res) {
					return true, true
				}
			}
		}
		if pass != plainPass {
			// After the pass that follows the plain one: the fits it left out.
			if f, stop := d.refitLinear(pyr, l, regions, refit, read, emit); f || stop {
				return true, stop
			}
		}
	}
	return found, false
}

// refitLinear reads again, bands' fits included, the linear candidates of level l whose
// fits the plain pass left out (refit, cleared), in rank; it reports whether one read and
// whether emit asked to stop.
func (d *Decoder) refitLinear(pyr *pyramid, l int, regions []region, refit, read []bool, emit func(Result) bool) (found, stop bool) {
	for i, r := range regions {
		if !refit[i] || d.expired() {
			continue
		}
		refit[i] = false
		if res, ok := d.decodeLinearLevels(pyr, l, r); ok {
			read[i], found = true, true
			if !emit(res) {
				return true, true
			}
		}
	}
	return found, false
}

// decodeLinearLevels reads linear candidate r of pyramid level l, then one level finer
// (bars reduced to a pixel or less on a reduced level).
func (d *Decoder) decodeLinearLevels(pyr *pyramid, l int, r region) (Result, bool) {
	if res, ok := d.decodeLinear(pyr.level(l), r); ok || l == 0 {
		return res, ok
	}
	return d.decodeLinear(pyr.level(l-1), r.scaled(2))
}

// scanHalf locates a camera frame on the level halved when nothing read on the frame
// itself: a faint symbol whose modules span several pixels stands out of the sensor noise
// there (the 2×2 means halve the noise, the modules' edges stay), where on the frame its
// cells stay under the floors or join clutter. The first halfCandidates faint matrix
// candidates of that level (found over the lower floor only: strong clutter is the
// frame's own candidates again) are read on the frame, as the later pass reads a
// candidate.
func (d *Decoder) scanHalf(pyr *pyramid, emit func(Result) bool) bool {
	if d.opt.Formats&TwoD == 0 {
		return false
	}
	g := pyr.level(0)
	d.budget = max(d.budget, lateBudget)
	tried := 0
	for _, r := range locate(pyr.level(1)) {
		if r.linear || !r.faint {
			continue
		}
		if d.expired() {
			break
		}
		var cc matrixCrops
		if res, ok := d.decodeMatrix(g, r.scaled(2), laterPass, &cc); ok {
			emit(res)
			return true
		}
		if tried++; tried >= halfCandidates {
			break
		}
	}
	return false
}

// decodeLinear reads bands across the bars of a linear candidate: each band averages 21
// parallel lines (noise), is upsampled so that a module spans ≥ 3 samples, turned into bars
// by edge detection and by a local threshold, trimmed to the symbol (whatever lies beyond a
// quiet zone is blanked: ticket edges, clutter) and handed to gozxing's row decoders both
// ways round. The region is extended generously along the bars' normal, since the
// locator's cells may miss the symbol's ends.
func (d *Decoder) decodeLinear(g *gray, r region) (Result, bool) {
	edges := 0
	if res, ok := d.readLinear(g, r, &edges); ok {
		return res, true
	}
	// A region that took in clutter coherent at the same angle (a striped mat beside a faint
	// code) misleads the angle refinement and the fit, which follow the strongest contrast.
	// Narrow it to the lines richest in bar edges, whatever their contrast, and read again.
	if n, ok := fitByEdges(g, r); ok && (math.Hypot(n.cx-r.cx, n.cy-r.cy) >= 4 || n.halfV <= 0.7*r.halfV) {
		if res, ok := d.readLinear(g, n, &edges); ok {
			return res, true
		}
	}
	// Dense clutter (a block of print, a matrix of blocks) beside a faint code has more
	// edges as well as more contrast: both fits chose it. Where the bands saw a symbol's
	// worth of edges, sweep the whole region (linear_extent.go).
	if edges >= minSymbolEdges {
		return d.sweepLinear(g, r)
	}
	return Result{}, false
}

// decodeLinearSmoothed reads a linear candidate on the smoothed level (the smoothed pass):
// as decodeLinear, then across the line through its cells. The bars' angle is the
// energy-weighted mean of the component's cells: faint bars that took in a striped mat of
// strong contrast at another angle (the cells join through neighbours within 17° of each
// other) get the mat's. The line through the cells is the symbol's, so the bars are read
// across it too (refineAngle corrects up to 12° more).
func (d *Decoder) decodeLinearSmoothed(g *gray, r region) (Result, bool) {
	d.smoothedBands = true
	defer func() { d.smoothedBands = false }()
	if res, ok := d.decodeLinear(g, r); ok {
		return res, true
	}
	if angleDiff(r.axis, r.angle) > 5*math.Pi/180 {
		a := r
		a.angle = r.axis
		edges := 0
		return d.readLinear(g, a, &edges)
	}
	return Result{}, false
}

// alignBars refines r's angle across the bars (refineAngle) and fits r across them
// (fitAcross): the region rectified, with (ux, uy) across the bars and (vx, vy) along them.
func alignBars(g *gray, r region) (a region, ux, uy, vx, vy float64) {
	r.angle = refineAngle(g, r)
	ux, uy = math.Cos(r.angle), math.Sin(r.angle)
	vx, vy = -uy, ux
	return fitAcross(g, r, ux, uy, vx, vy), ux, uy, vx, vy
}

// linearBands are readLinear's bands: five wide ones first (noise), then seven narrow ones
// across the whole height, for bars that are not parallel (perspective, curved paper) or
// partly covered (a finger, glare).
func linearBands() []band {
	return []band{{0, 10}, {-0.25, 10}, {0.25, 10}, {-0.5, 10}, {0.5, 10},
		{-0.7, 3}, {0.7, 3}, {-0.35, 3}, {0.35, 3}, {0, 3}, {-0.85, 2}, {0.85, 2}}
}

// readLinear is decodeLinear on one region; edges keeps the most bar edges a band saw.
func (d *Decoder) readLinear(g *gray, r region, edges *int) (Result, bool) {
	margin := linearMargin(r)
	r, ux, uy, vx, vy := alignBars(g, r)
	bands := linearBands()
	votes := bandVotes{}
	seen := 0
	defer func() { *edges = max(*edges, seen) }()
	if res, ok := d.scanBands(g, r, ux, uy, vx, vy, r.halfU+margin, bands[:5], votes, &seen); ok {
		return res, true
	}
	// The narrow bands and the slanted scan only where the wide bands saw a symbol's worth
	// of bars (Code 128 and ITF of 6 digits or more have over 40 edges): clutter stops here.
	if seen < minSymbolEdges {
		return Result{}, false
	}
	if res, ok := d.scanBands(g, r, ux, uy, vx, vy, r.halfU+margin, bands[5:], votes, &seen); ok {
		return res, true
	}
	// Bars that run on beyond the scan: the candidate is shorter than the code (its end
	// cells under the floors); scan again over the bars' extent (linear_extent.go).
	if e, ok := fitAlong(g, r, ux, uy, vx, vy, r.halfU+margin); ok {
		if res, ok := d.scanBands(g, e, ux, uy, vx, vy, e.halfU, bands, votes, &seen); ok {
			return res, true
		}
	}
	// Seen at a slant (perspective), the bars are sheared: the line through the symbol
	// (the cells' long axis) is no longer their normal, and a scan along the normal leaves
	// the bars before their end. Scan along the axis then, still averaging along the bars.
	delta := angleDiff(r.axis, r.angle)
	if delta < 2*math.Pi/180 || delta > 35*math.Pi/180 {
		return Result{}, false
	}
	ax, ay := math.Cos(r.axis), math.Sin(r.axis)
	if ax*ux+ay*uy < 0 {
		ax, ay = -ax, -ay
	}
	half := (r.halfU + margin) / math.Cos(delta)
	narrow := []band{{0, 2}, {-0.3, 2}, {0.3, 2}, {-0.6, 2}, {0.6, 2}, {-0.15, 2}, {0.15, 2}}
	return d.scanBands(g, r, ax, ay, vx, vy, half, narrow, votes, &seen)
}

// linearMargin is how far beyond a linear region's ends its bands are scanned: the locator's
// cells may miss the symbol's ends and its quiet zones.
func linearMargin(r region) float64 { return 0.5*r.halfU + 2*cellSize }

// fitAcross narrows a linear region across the bars to where they are: the cells of a
// ticket's text line or border, coherent at the same angle, may have joined the component,
// and bands spread over that height would miss the bars. Each line across the region (every
// 2 px) scores its edge activity along the bars' normal; of the runs of lines above 40 % of
// the way from the least active to the most active one, the run with the most activity in
// all is the bars' extent.
func fitAcross(g *gray, r region, ux, uy, vx, vy float64) region {
	const step = 2.0
	lo, hi := -r.halfV-cellSize, r.halfV+cellSize
	m := int((hi-lo)/step) + 1
	if m < 4 {
		return r
	}
	act := make([]float64, m)
	best := 0
	for j := range act {
		v := lo + float64(j)*step
		sx, sy := r.cx-r.halfU*ux+v*vx, r.cy-r.halfU*uy+v*vy
		prev := g.at(sx, sy)
		for t := 1.0; t < 2*r.halfU; t++ {
			c := g.at(sx+t*ux, sy+t*uy)
			act[j] += math.Abs(c - prev)
			prev = c
		}
		if act[j] > act[best] {
			best = j
		}
	}
	base := slices.Min(act) // paper or desk beyond the bars: noise and texture
	thr := base + 0.4*(act[best]-base)
	// The run of lines above the threshold with the most activity in all: a printed text
	// line beside the bars, resolved into fine glyphs on a large photo, may hold the single
	// most active line, but the bars are many lines tall.
	a, b := best, best
	var bestSum float64
	for j := 0; j < m; {
		if act[j] < thr {
			j++
			continue
		}
		k, sum := j, 0.0
		for ; k < m && act[k] >= thr; k++ {
			sum += act[k]
		}
		if sum > bestSum {
			a, b, bestSum = j, k-1, sum
		}
		j = k
	}
	v0, v1 := lo+float64(a)*step, lo+float64(b)*step
	if v1-v0 < 8 || (v1-v0)/2 >= r.halfV {
		return r
	}
	mid := (v0 + v1) / 2
	r.cx, r.cy = r.cx+mid*vx, r.cy+mid*vy
	r.halfV = (v1-v0)/2 + step
	return r
}

// fitByEdges narrows a linear region across the bars to the lines (every 2 px, at the
// region's angle) that cross the most bar edges: alternating steps well above the line's own
// median step, so whatever the contrast (a code has dozens, a striped mat a few). The run of
// lines around the richest one, with at least half its count, is the bars' extent; ok is
// false when no line crosses a symbol's worth of edges.
func fitByEdges(g *gray, r region) (region, bool) {
	const step = 2.0
	ux, uy := math.Cos(r.angle), math.Sin(r.angle)
	vx, vy := -uy, ux
	lo, hi := -r.halfV-cellSize, r.halfV+cellSize
	m := int((hi-lo)/step) + 1
	n := int(2 * r.halfU)
	if m < 4 || n < 16 {
		return r, false
	}
	act := make([]int, m)
	diff := make([]float64, n)
	mags := make([]float64, n)
	best := 0
	for j := range act {
		v := lo + float64(j)*step
		sx, sy := r.cx-r.halfU*ux+v*vx, r.cy-r.halfU*uy+v*vy
		prev := g.at(sx, sy)
		for i := range diff {
			c := g.at(sx+float64(i+1)*ux, sy+float64(i+1)*uy)
			diff[i] = c - prev
			mags[i] = math.Abs(diff[i])
			prev = c
		}
		slices.Sort(mags)
		thr := max(3*mags[n/2], 4)
		last := 0.0
		for _, d := range diff {
			if math.Abs(d) > thr && (last == 0 || (d > 0) != (last > 0)) {
				act[j]++
				last = d
			}
		}
		if act[j] > act[best] {
			best = j
		}
	}
	if act[best] < minSymbolEdges {
		return r, false
	}
	a, b := best, best
	for a > 0 && 2*act[a-1] >= act[best] {
		a--
	}
	for b < m-1 && 2*act[b+1] >= act[best] {
		b++
	}
	v0, v1 := lo+float64(a)*step, lo+float64(b)*step
	mid := (v0 + v1) / 2
	r.cx, r.cy = r.cx+mid*vx, r.cy+mid*vy
	r.halfV = max((v1-v0)/2+step, 12)
	return r, true
}

// minSymbolEdges is the number of bar edges under which a band holds no code of ours.
const minSymbolEdges = 30

// transitions counts the bar/space changes of a row.
func transitions(bits []bool) int {
	n := 0
	for i := 1; i < len(bits); i++ {
		if bits[i] != bits[i-1] {
			n++
		}
	}
	return n
}

// bandVotes counts the bands that read each symbol over the passes on one region.
type bandVotes map[Result]struct{ all, clean int }

// add counts a band's read of res (clean: not disputed, code128Agrees) and reports whether
// it now counts: need bands, one of them clean. A character that gozxing's pattern match
// misreads (a blurred narrow element widened by its neighbours) is misread the same way on
// the band beside it, so a read our similar-edge reading disputes needs a band where it is
// not disputed. An ITF read never counts once another band of the same votes read another
// ITF text: ITF has no check character, and where the bands of one region disagree the
// region's reading is not to be trusted, whichever text has more bands (a faint ITF seen
// at a slant, the third generator's held-out `perspective` seed 1000249, read a wrong
// 14-digit text on three bands and its own on one: TestITFBandsThatDisagree). The region
// narrowed to its bar edges, its sweep and the later passes have votes of their own; the
// frame's ITF texts are kept where they lay, over every band (itfConflict).
func (v bandVotes) add(res Result, clean bool, need int) bool {
	c := v[res]
	c.all++
	if clean {
		c.clean++
	}
	v[res] = c
	if res.Format == ITF && v.itfConflict(res) {
		return false
	}
	return c.all >= need && c.clean >= 1
}

// itfConflict reports whether v holds an ITF read other than res.
func (v bandVotes) itfConflict(res Result) bool {
	for o := range v {
		if o != res && o.Format == ITF {
			return true
		}
	}
	return false
}

// bandsNeeded is how many bands must read res for it to count: two, and smoothedITFBands
// for an ITF read on the smoothed level. ITF has no check character, and the 3×3 smoothing
// that brings faint bars out of the noise also merges a narrow element of 1.5 px with its
// neighbours the same way on every band: under strong noise and JPEG two bands of a tuning
// frame read a wrong 14-digit text alike (third generator, `mixed` seed 318), where no band
// reached a third agreeing read (TestLinearNoWrongReadUnderNoise).
func (d *Decoder) bandsNeeded(res Result) int {
	if d.smoothedBands && res.Format == ITF {
		return smoothedITFBands
	}
	return 2
}

// smoothedITFBands is how many bands must agree on an ITF read of the smoothed pass.
const smoothedITFBands = 3

// band is a scan band: its offset across the region in halfV and the number of lines
// averaged either side of its centre.
type band struct{ f, half float64 }

// scanBands reads bands along (ax, ay) over ±half from the region's centre, each averaging
// lines offset along (bx, by) (the bars' direction), through both bar finders and the row
// decoders. Samples beyond the frame repeat its edge (where the frame cuts a quiet zone,
// paper: whitening them instead read fewer, since a scan line often leaves the ticket first);
// a row dark where the centre line leaves the frame is read again with its cut outer bar
// redrawn (decodeCutBar).
//
// A read counts only once another band agrees (votes, shared by the passes over one region;
// one of the two undisputed, bandVotes.add):
// a misread can pass Code 128's modulo-103 check (two characters changed so that their
// weighted sum stays; it happened on a wide band of a camera frame), and ITF has no check
// digit at all.
func (d *Decoder) scanBands(g *gray, r region, ax, ay, bx, by, half float64, bands []band, votes bandVotes, edges *int) (Result, bool) {
	if d.expired() {
		return Result{}, false
	}
	length := 2 * half
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
	in0, in1 := inFrame(g, r.cx-half*ax, r.cy-half*ay, ax/k, ay/k, n)
	for i, bd := range bands {
		if i > 0 && d.expired() { // a band costs 0.1–2 ms; a sweep has up to 16
			return Result{}, false
		}
		off := bd.f * r.halfV
		clear(prof)
		step := 1.0
		if bd.half >= 7 {
			step = 2 // 11 lines of a wide band average the noise well enough
		}
		for dv := -bd.half; dv <= bd.half; dv += step {
			sx := r.cx - half*ax + (off+dv)*bx
			sy := r.cy - half*ay + (off+dv)*by
			for i := range prof {
				t := (float64(i) + 0.5) / k
				prof[i] += g.at(sx+t*ax, sy+t*ay)
			}
		}
		for method := range rowMethods {
			row, ok := d.rowBits(prof, bits, method)
			if !ok {
				continue
			}
			trimToSymbol(row)
			if e := transitions(row); e > *edges && method < 3 {
				*edges = e
			}
			res, ok := d.decodeBits(row)
			if !ok && method < 3 {
				res, ok = d.decodeCutBar(row, in0, in1)
			}
			if ok {
				// Noted whether or not the votes count: a text read on bars where
				// another was read does not count (itfConflict).
				placed := row
				if method == edgeMethod { // its row is rebuilt from widths
					placed = nil
				}
				other := res.Format == ITF && d.itfConflict(itfBandReadOf(res.Text, placed, n, r, ax, ay, bx, by, half, off, k))
				if votes.add(res, !d.disputed, d.bandsNeeded(res)) && !other {
					return res, true
				}
				break // the other methods would only repeat the band's read
			}
		}
	}
	return Result{}, false
}

// rowMethods is how many ways rowBits turns a band's profile into bars; edgeMethod is the
// last, whose row is rebuilt from the edges' widths (not in the profile's samples).
const rowMethods, edgeMethod = 4, 3

// rowBits turns a band's profile p into bars by one of rowMethods methods: 0 derivative
// edges (robust to blur), 1 a local min/max threshold, 2 edges with the light taken out
// first (linear_shade.go: a shadow edge or glare), 3 from the edges' sub-sample positions
// (linear_edges.go: blur, motion, ink spread; its own row, not bits). ok is false when the
// method finds no bars.
func (d *Decoder) rowBits(p []float64, bits []bool, method int) (row []bool, ok bool) {
	switch method {
	case 0:
		return bits, edgeBits(p, bits)
	case 1:
		binarize(p, bits, max(12, len(p)/10))
		return bits, true
	case 2:
		return bits, shadeBits(p, bits)
	default:
		return d.edgeRow(p)
	}
}

// refineAngle corrects the bars' orientation, which the cell statistics give to a degree or
// two (too coarse for averaging 21 lines over bars 1.5 pixels wide): it compares the
// derivative profiles of two lines ±D apart and turns the axis by the shift between them.
// The lines span the candidate and a cell beyond it, not the scan's whole margin: clutter of
// stronger contrast at another angle there (a striped mat beside a faint code) would set the
// shift (a faint Code 128 was turned 15° off its bars that way).
func refineAngle(g *gray, r region) float64 {
	const k = 2.0
	D := min(0.35*r.halfV, 16)
	if D < 3 {
		return r.angle
	}
	ux, uy := math.Cos(r.angle), math.Sin(r.angle)
	vx, vy := -uy, ux
	span := r.halfU + cellSize
	n := int(2 * span * k)
	if n < 32 || n > 4000 {
		return r.angle
	}
	line := func(off float64) []float64 {
		p := make([]float64, n)
		for dv := -1.0; dv <= 1; dv++ {
			sx := r.cx - span*ux + (off+dv)*vx
			sy := r.cy - span*uy + (off+dv)*vy
			for i := range p {
				t := (float64(i) + 0.5) / k
				p[i] += g.at(sx+t*ux, sy+t*uy)
			}
		}
		for i := n - 1; i > 0; i-- {
			p[i] -= p[i-1]
		}
		p[0] = 0
		return p
	}
	a, b := line(-D), line(D)
	S := int(math.Ceil(2*D*math.Tan(12*math.Pi/180)*k)) + 1
	corr := make([]float64, 2*S+1)
	best := 0
	for s := -S; s <= S; s++ {
		var c float64
		for i := max(0, -s); i < n && i+s < n; i++ {
			c += a[i] * b[i+s]
		}
		corr[s+S] = c
		if c > corr[best] {
			best = s + S
		}
	}
	shift := float64(best - S)
	if best > 0 && best < 2*S {
		l, m, h := corr[best-1], corr[best], corr[best+1]
		if den := l - 2*m + h; den < 0 {
			shift += 0.5 * (l - h) / den
		}
	}
	return r.angle - math.Atan2(shift/k, 2*D)
}

// trimToSymbol blanks everything beyond the quiet zones around the middle of the row: walking
// out from the centre, the first space wider than 7 narrow elements ends the symbol (Code 128
// and ITF elements are at most 4 modules wide, their quiet zones at least 10).
func trimToSymbol(bits []bool) {
	n := len(bits)
	type run struct{ start, end int }
	var runs []run
	for i := 0; i < n; {
		j := i
		for j < n && bits[j] == bits[i] {
			j++
		}
		runs = append(runs, run{i, j})
		i = j
	}
	if len(runs) < 8 {
		return
	}
	// Narrow element: the 25th percentile of run lengths in the middle half.
	var ls []int
	c := 0
	for i, r := range runs {
		if r.end > n/4 && r.start < 3*n/4 {
			ls = append(ls, r.end-r.start)
		}
		if r.start <= n/2 && n/2 < r.end {
			c = i
		}
	}
	if len(ls) < 4 {
		return
	}
	slices.Sort(ls)
	gap := 7 * max(1, ls[len(ls)/4])
	lo, hi := 0, n
	for i := c; i >= 0; i-- {
		if !bits[runs[i].start] && runs[i].end-runs[i].start > gap {
			lo = runs[i].end - gap
			break
		}
	}
	for i := c; i < len(runs); i++ {
		if !bits[runs[i].start] && runs[i].end-runs[i].start > gap {
			hi = runs[i].start + gap
			break
		}
	}
	for i := 0; i < lo; i++ {
		bits[i] = false
	}
	for i := hi; i < n; i++ {
		bits[i] = false
	}
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
	mns, mxs := make([]float64, n), make([]float64, n)
	slidingExtreme(p, win/2, false, mns)
	slidingExtreme(p, win/2, true, mxs)
	for i := range p {
		mn, mx := mns[i], mxs[i]
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
	edges := findEdges(p)
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
	d.disputed = false
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
				d.disputed = !code128Agrees(d.row, res)
				return d.result(res, true)
			}
		}
		if d.opt.Formats&ITF != 0 {
			hints := map[gozxing.DecodeHintType]interface{}{gozxing.DecodeHintType_ALLOWED_LENGTHS: d.itfLengths()}
			if res, err := d.itf.DecodeRow(0, d.row, hints); err == nil && itfGuardsNarrow(d.row, res) {
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
