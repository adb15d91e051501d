package barcode

import "math"

// scanSmoothedLocate locates a camera frame again on its 3×3 mean, when nothing read and
// the frame's noise is strong (frameNoise at least smoothedLocNoise: a frame of clutter
// under ordinary noise does not pay for it). Under strong sensor noise (σ 14–20 grey levels
// at 25–35 % contrast) the cells over a code's bars stay partly under the floors: the
// frame's candidate is a piece of the code, off its centre across the bars (the tuning
// frame of ITF `mixed` seed 827: perspective, motion and JPEG besides), or there is none
// (seed 820). On the mean the whole code is one candidate over the floors; its first
// smoothedLocCandidates linear candidates are read on the frame itself, as the plain pass
// reads a candidate, then with bands over the bars' whole height (readTall). Two bands
// must agree.
func (d *Decoder) scanSmoothedLocate(g *gray, emit func(Result) bool) bool {
	if d.opt.Formats&OneD == 0 || d.expired() || frameNoise(g) < smoothedLocNoise {
		return false
	}
	s := g.boxMean(1)
	tried := 0
	for _, r := range locate(&s) {
		if !r.linear || r.faint {
			continue
		}
		if d.expired() {
			return false
		}
		if res, ok := d.decodeLinear(g, r); ok {
			emit(res)
			return true
		}
		if res, ok := d.readTall(g, r); ok {
			emit(res)
			return true
		}
		if tried++; tried >= smoothedLocCandidates {
			break
		}
	}
	return false
}

// readTall reads a linear candidate with bands over the bars' whole fitted height: a wide
// band averages 11 lines, bars 50 modules tall span 75–135 px, and under noise of σ 20 the
// 11 lines leave a narrow element of 1.5 px at 27 % contrast in the noise where the bars'
// height averages it out (the tuning frame of ITF `mixed` seed 820). Straight bars only (a
// band over the whole height of sheared bars blurs them); two bands must agree.
func (d *Decoder) readTall(g *gray, r region) (Result, bool) {
	r, ux, uy, vx, vy := alignBars(g, r)
	h := r.halfV
	bands := []band{{0, 0.9 * h}, {-0.35, 0.6 * h}, {0.35, 0.6 * h}, {0, 0.5 * h}}
	seen := 0
	return d.scanBands(g, r, ux, uy, vx, vy, r.halfU+linearMargin(r), bands, bandVotes{}, &seen)
}

// smoothedLocCandidates is how many linear candidates of the smoothed frame are read.
const smoothedLocCandidates = 2

// smoothedLocNoise is the frame's noise level (σ in grey levels, frameNoise) from which
// scanSmoothedLocate runs: the tuning frames it reads have 10.5–20 (JPEG lowers a σ of
// 20 to 13), the benchmark's frames of clutter 2.3–7.9.
const smoothedLocNoise = 9.0

// frameNoise estimates the white sensor noise of g as σ in grey levels: the median over
// the cells of the 2×2 blocks' Haar detail energy (cellTexture), which noise of σ puts at
// 4σ².
func frameNoise(g *gray) float64 {
	cw, ch := g.w/cellSize, g.h/cellSize
	if cw < 1 || ch < 1 {
		return 0
	}
	_, n := cellTexture(g, cw, ch)
	return math.Sqrt(n / 4)
}
