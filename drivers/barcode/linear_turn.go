package barcode

import "math"

// The turned retry (issue 34): bars of under two pixels a module that lie along the pixel
// grid (at 0° or 90°, or near them) and are blurred can fall into a phase where every
// narrow element straddles two pixels and its edges melt into its neighbours': the same
// symbol a few pixels over, or turned by a couple of degrees, reads. When nothing read on a
// frame that had linear candidates, the frame is resampled turned by turnRetryDegrees
// (bilinear, about its centre) and its first linear candidates are read again: a scan at
// another angle through the same bars, as multi-angle readers do.

// turnRetryDegrees are the turns of the retry, in order: enough to move every bar edge by
// a module's worth of phase over a symbol's length, little enough to keep the bars
// parallel to within the bands' tolerance; the second one the other way and not its
// mirror (a symbol at 90° would be back in a phase already tried).
var turnRetryDegrees = [...]float64{3, -7}

// turnRetryCandidates is how many linear candidates of the turned frame are read.
const turnRetryCandidates = 2

// turned returns g resampled turned by deg degrees about its centre (bilinear; outside
// the frame, the nearest edge pixel).
func (g *gray) turned(deg float64) gray {
	out := gray{w: g.w, h: g.h, pix: make([]byte, len(g.pix))}
	s, c := math.Sincos(deg * math.Pi / 180)
	cx, cy := float64(g.w-1)/2, float64(g.h-1)/2
	for y := range g.h {
		dy := float64(y) - cy
		for x := range g.w {
			dx := float64(x) - cx
			sx, sy := cx+c*dx+s*dy, cy-s*dx+c*dy
			sx = min(max(sx, 0), float64(g.w-1))
			sy = min(max(sy, 0), float64(g.h-1))
			x0, y0 := int(sx), int(sy)
			x1, y1 := min(x0+1, g.w-1), min(y0+1, g.h-1)
			fx, fy := sx-float64(x0), sy-float64(y0)
			a := float64(g.pix[y0*g.w+x0])*(1-fx) + float64(g.pix[y0*g.w+x1])*fx
			b := float64(g.pix[y1*g.w+x0])*(1-fx) + float64(g.pix[y1*g.w+x1])*fx
			out.pix[y*g.w+x] = byte(a*(1-fy) + b*fy + 0.5)
		}
	}
	return out
}

// scanTurned reads the first linear candidates of g turned by each of turnRetryDegrees;
// a read counts only when both turns read the same symbol, and it is handed to emit.
//
// One turn alone is not enough: on a near miss (a Code 128 with one data character
// changed, hence a wrong check character), the 3° turn read another code, two characters
// misread so that the check matched (TestNearMissCodesReadNothing). The turned frames are
// two independent looks; a misread that depends on the phase does not repeat in both. The
// retry also takes no Code 128 character other than as its edges read it (noRepairs).
func (d *Decoder) scanTurned(g *gray, emit func(Result) bool) bool {
	d.noRepairs = true
	defer func() { d.noRepairs = false }()
	var first Result
	for i, deg := range turnRetryDegrees {
		var got Result
		if !d.scanTurnedBy(g, deg, func(r Result) bool { got = r; return false }) {
			return false
		}
		if i > 0 && (got.Text != first.Text || got.Format != first.Format) {
			return false
		}
		first = got
	}
	emit(first)
	return true
}

func (d *Decoder) scanTurnedBy(g *gray, deg float64, emit func(Result) bool) bool {
	if d.opt.Formats&OneD == 0 || d.expired() {
		return false
	}
	t := g.turned(deg)
	if d.expired() {
		return false
	}
	tried := 0
	for _, r := range locate(&t) {
		if !r.linear || r.faint {
			continue
		}
		if d.expired() {
			return false
		}
		if res, ok := d.decodeLinear(&t, r); ok {
			emit(res)
			return true
		}
		if tried++; tried >= turnRetryCandidates {
			break
		}
	}
	return false
}
