package barcode

import "math"

// Bars seen in perspective converge: their direction turns along the symbol, by 9–12° from
// one end to the other on the third generator's ITF `mixed` tuning frames 1237 and 1308
// (narrow bars of 1.6–1.9 px under noise ×8.5–9.8 and JPEG q45–47). A band that averages its
// lines along one direction smears the bars where it is off (at ±6° over ±10 lines a bar
// moves ±1 px), and the angle refined over the whole candidate is a compromise that fits
// neither end; narrow bands keep the bars but not the noise out. So the direction is measured
// on pieces along the candidate, fitted as a line (the angle against the position), and each
// sample of the band averages its lines along the bars' direction there (a fan).

// barFan is the bars' turn along a scan: the change of their normal's angle per pixel along
// it, from the angle at the scan's centre, half pixels from its start.
type barFan struct{ slope, half float64 }

// dir returns the bars' direction (along them) at t pixels from the scan's start, whose
// normal at the centre has angle theta.
func (f *barFan) dir(theta, t float64) (bx, by float64) {
	a := theta + f.slope*(t-f.half)
	return -math.Sin(a), math.Cos(a)
}

// fanPieces are the pieces' centres along a candidate (in halfU), whose bars' angles the fan
// is fitted to; each piece spans fanPieceHalf of the candidate's halfU either side.
var fanPieces = [...]float64{-0.8, -0.4, 0, 0.4, 0.8}

const fanPieceHalf = 0.25

// fanPieceRows is how many lines either side of each of refineAngle's two lines a piece
// averages: a piece is a quarter of the candidate, and under noise ×10 three lines of it
// turned a piece of frame 1237 to the search's bound (12° off).
const fanPieceRows = 3

// fanMinTurn is the turn across a candidate under which its bars count as parallel (the
// bands of readLinear already follow them); fanMaxTurn the turn over which the pieces'
// angles are not one perspective's; fanMaxResidual how far a piece's angle may lie from the
// fitted line (one piece, in clutter or a quiet zone, is left out).
const (
	fanMinTurn     = 3 * math.Pi / 180
	fanMaxTurn     = 30 * math.Pi / 180
	fanMaxResidual = 1.5 * math.Pi / 180
)

// measureFan fits the bars' normal angle along the candidate r (its own angle and centre,
// from the locator): the angle at the centre and its change per pixel along the normal; ok
// is false when the pieces' angles do not lie on a line within fanMaxResidual (one piece
// may be left out) or the turn across the candidate is under fanMinTurn or over fanMaxTurn.
func measureFan(g *gray, r region) (theta, slope float64, ok bool) {
	ux, uy := math.Cos(r.angle), math.Sin(r.angle)
	var s, a [len(fanPieces)]float64
	for i, f := range fanPieces {
		q := r
		s[i] = f * r.halfU
		q.cx, q.cy = r.cx+s[i]*ux, r.cy+s[i]*uy
		q.halfU = fanPieceHalf * r.halfU
		a[i] = r.angle + angleDelta(refineAngleOver(g, q, fanPieceRows), r.angle)
	}
	out := -1 // the piece left out
	for range 2 {
		theta, slope = fitLine(s[:], a[:], out)
		worst, wr := -1, 0.0
		for i := range s {
			if e := math.Abs(a[i] - theta - slope*s[i]); i != out && e > wr {
				worst, wr = i, e
			}
		}
		if wr <= fanMaxResidual {
			turn := math.Abs(slope) * 2 * r.halfU
			return theta, slope, turn >= fanMinTurn && turn <= fanMaxTurn
		}
		if out >= 0 {
			break
		}
		out = worst
	}
	return 0, 0, false
}

// angleDelta returns a − b as a line's angle (within ±90°).
func angleDelta(a, b float64) float64 {
	d := math.Mod(a-b, math.Pi)
	switch {
	case d > math.Pi/2:
		d -= math.Pi
	case d < -math.Pi/2:
		d += math.Pi
	}
	return d
}

// fitLine fits y ≈ c + m·x by least squares, leaving out point skip (−1: none).
func fitLine(x, y []float64, skip int) (c, m float64) {
	var n, sx, sy, sxx, sxy float64
	for i := range x {
		if i == skip {
			continue
		}
		n++
		sx += x[i]
		sy += y[i]
		sxx += x[i] * x[i]
		sxy += x[i] * y[i]
	}
	if den := n*sxx - sx*sx; den > 0 {
		m = (n*sxy - sx*sy) / den
	}
	return (sy - m*sx) / n, m
}

// readFan reads a linear candidate r (as located) whose bars converge (measureFan) with
// bands that follow them: the candidate turned to the bars' angle at its centre and fitted
// across them (fitAcross), each band's lines averaged along the bars' direction at each
// sample. Wide bands first, then bands over half the bars' height (the noise of frames
// 1237 and 1308 needs 21–41 lines). The votes are readLinear's.
func (d *Decoder) readFan(g *gray, r region, votes bandVotes, seen *int) (Result, bool) {
	theta, slope, ok := measureFan(g, r)
	if !ok {
		return Result{}, false
	}
	r.angle = theta
	ux, uy := math.Cos(theta), math.Sin(theta)
	vx, vy := -uy, ux
	r = fitAcross(g, r, ux, uy, vx, vy)
	half := r.halfU + linearMargin(r)
	h := r.halfV
	bands := []band{{0, 10}, {-0.25, 10}, {0.25, 10}, {0, 0.5 * h}, {-0.3, 0.5 * h}, {0.3, 0.5 * h}}
	d.fan = &barFan{slope: slope, half: half}
	defer func() { d.fan = nil }()
	return d.scanBands(g, r, ux, uy, vx, vy, half, bands, votes, seen)
}

// fanProfile adds into prof the band of lines ±half offset off from the scan line that
// starts at (x0, y0) along (ax, ay), k samples a pixel, each sample's lines along the bars'
// direction there (d.fan). Every line: the frames it is for need the noise averaged over
// 40 lines or so.
func (d *Decoder) fanProfile(g *gray, prof []float64, x0, y0, ax, ay, k, off, half float64) {
	theta := math.Atan2(ay, ax)
	for i := range prof {
		t := (float64(i) + 0.5) / k
		bx, by := d.fan.dir(theta, t)
		px, py := x0+t*ax, y0+t*ay
		for dv := -half; dv <= half; dv++ {
			prof[i] += g.at(px+(off+dv)*bx, py+(off+dv)*by)
		}
	}
}
