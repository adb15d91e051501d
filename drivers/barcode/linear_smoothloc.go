package barcode

// scanSmoothedLocate locates a camera frame again on its 3×3 mean, when nothing read and
// the frame's own locate found faint bars only (faintLinear): under strong sensor noise
// (σ 14–20 grey levels at 25–35 % contrast) the cells over a code's bars stay partly under
// the floors, and the candidate is a piece of the code, off its centre across the bars
// (the tuning frame of ITF `mixed` seed 827: perspective, motion and JPEG besides). On the
// mean the whole code is one candidate over the floors; its first smoothedLocCandidates
// linear candidates are read on the frame itself, as the plain pass reads a candidate
// (two bands must agree).
func (d *Decoder) scanSmoothedLocate(g *gray, emit func(Result) bool) bool {
	if d.opt.Formats&OneD == 0 || !d.faintLinear || d.expired() {
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
		if tried++; tried >= smoothedLocCandidates {
			break
		}
	}
	return false
}

// smoothedLocCandidates is how many linear candidates of the smoothed frame are read.
const smoothedLocCandidates = 2
