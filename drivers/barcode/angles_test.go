//go:build !race && linux

package barcode

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// 1D at any angle (issue 34): the decoder reads a linear candidate across its bars at the
// fitted angle, bands of averaged lines along the fitted normal (decode.go, readLinear):
// the region rectified. The classic alternative, zbar's and ZXing's manner, scans single
// lines at a few fixed angles through the region and reads whichever crosses the bars. This
// file holds that baseline, test-only, on our own locator's candidates and our own row
// readers (the bar finders, trimToSymbol, decodeBits: gozxing's Code 128 and ITF row
// decoders both ways round), so that both approaches see the same regions and differ only
// in where their lines run and how many pixels each averages. angles_measure_test.go
// measures both on the third generator's frames (BARCODE_ANGLES).

// angleSnap says where a multi-angle scan takes its angles from.
type angleSnap int

const (
	snapNone    angleSnap = iota // K angles evenly spaced over 180°, from 0°
	snapLocator                  // one angle: the locator's (the cells' structure tensor)
	snapFitted                   // one angle: refineAngle's (~0.05°), as our bands use
)

// angleScan configures the multi-angle scanline reader.
type angleScan struct {
	k       int // angles over 180° (snapNone)
	avg     int // lines averaged either side of a scan line, 1 px apart (0: a single line)
	lines   int // parallel scan lines per angle
	snap    angleSnap
	allRows bool // our four row methods (as scanBands); false: edgeBits and binarize only
}

// angles returns the scan's angles (radians, the direction the lines run) for region r.
func (s angleScan) angles(g *gray, r region) []float64 {
	switch s.snap {
	case snapLocator:
		return []float64{r.angle}
	case snapFitted:
		return []float64{refineAngle(g, r)}
	}
	out := make([]float64, s.k)
	for i := range out {
		out[i] = float64(i) * math.Pi / float64(s.k)
	}
	return out
}

// lineOffset is the j-th of m parallel lines' offset across the region, as a fraction of
// its half-extent: 0, then ±0.3, ±0.6 (m = 5), the centre first.
func lineOffset(j, m int) float64 {
	if j == 0 || m < 2 {
		return 0
	}
	step := 0.6 / float64(m/2)
	f := float64((j+1)/2) * step
	if j%2 == 0 {
		f = -f
	}
	return f
}

// scanAngles reads linear candidate r with scan lines at each of s's angles through the
// region's centre and parallel to it (s.lines per angle, spread over ±0.6 of the region's
// extent across them), each the mean of 2·s.avg+1 lines 1 px apart, sampled bilinearly
// every half pixel (as our bands) over the region's bounding circle and the margin our
// bands scan beyond it. Each line's profile is turned into bars (scanRow) and read by
// decodeBits; a read counts once a second line agrees (bandVotes, as our bands).
func (d *Decoder) scanAngles(g *gray, r region, s angleScan) (Result, bool) {
	const k = 2.0
	half := math.Hypot(r.halfU+linearMargin(r), r.halfV)
	n := int(2 * half * k)
	if n < 32 || n > 4000 {
		return Result{}, false
	}
	prof := make([]float64, n)
	bits := make([]bool, n)
	votes := bandVotes{}
	for _, th := range s.angles(g, r) {
		ux, uy := math.Cos(th), math.Sin(th)
		vx, vy := -uy, ux
		da := th - r.angle
		ext := r.halfU*math.Abs(math.Sin(da)) + r.halfV*math.Abs(math.Cos(da))
		for j := range max(1, s.lines) {
			off := lineOffset(j, s.lines) * ext
			clear(prof)
			for dv := -s.avg; dv <= s.avg; dv++ {
				sx := r.cx - half*ux + (off+float64(dv))*vx
				sy := r.cy - half*uy + (off+float64(dv))*vy
				for i := range prof {
					t := (float64(i) + 0.5) / k
					prof[i] += g.at(sx+t*ux, sy+t*uy)
				}
			}
			if res, ok := d.scanRow(prof, bits, s.allRows); ok && votes.add(res, !d.disputed, 2) {
				return res, true
			}
		}
	}
	return Result{}, false
}

// scanRow turns one line's profile into bars and reads them: derivative edges (zbar's way)
// and a local min/max threshold (ZXing's), and with all our two others (the light taken
// out, linear_shade.go; the edges' positions, linear_edges.go), each trimmed to the symbol
// and read by decodeBits, as scanBands does; the first method that reads ends the row.
func (d *Decoder) scanRow(prof []float64, bits []bool, all bool) (Result, bool) {
	methods := 2
	if all {
		methods = 4
	}
	for method := range methods {
		row, ok := d.rowBits(prof, bits, method)
		if !ok {
			continue
		}
		trimToSymbol(row)
		if res, ok := d.decodeBits(row); ok {
			return res, true
		}
	}
	return Result{}, false
}

// readFittedBands is our read of a linear candidate without its later fits: the bars'
// angle refined (refineAngle), the region narrowed across them (fitAcross), the five wide
// bands and, where they saw a symbol's worth of edges, the seven narrow ones, as readLinear
// begins (alignBars, linearBands). It leaves
// out the bars' extent (fitAlong), the slanted scan, fitByEdges and the sweep.
func (d *Decoder) readFittedBands(g *gray, r region) (Result, bool) {
	margin := linearMargin(r)
	r, ux, uy, vx, vy := alignBars(g, r)
	bands := linearBands()
	votes := bandVotes{}
	seen := 0
	if res, ok := d.scanBands(g, r, ux, uy, vx, vy, r.halfU+margin, bands[:5], votes, &seen); ok || seen < minSymbolEdges {
		return res, ok
	}
	return d.scanBands(g, r, ux, uy, vx, vy, r.halfU+margin, bands[5:], votes, &seen)
}

// linearCandidates returns the linear candidates the plain pass reads (scanLevel: the first
// four that are not faint) and the faint ones the smoothed pass adds (two at most).
func linearCandidates(g *gray) (plain, faint []region) {
	for _, r := range locate(g) {
		switch {
		case !r.linear:
		case !r.faint && len(plain) < 4:
			plain = append(plain, r)
		case r.faint && len(faint) < 2:
			faint = append(faint, r)
		}
	}
	return plain, faint
}

// readWithRetries is the decoder's whole linear path on a one-level frame: the plain pass
// (decodeLinear on each candidate), then, when nothing read, the smoothed pass (the frame
// smoothed over 3×3 pixels, decodeLinearSmoothed on the candidates and the faint ones),
// then the turned retry (scanTurned: the frame turned by 3° and −7°, both must agree).
func (d *Decoder) readWithRetries(g *gray, plain, faint []region) (Result, bool) {
	for _, r := range plain {
		if res, ok := d.decodeLinear(g, r); ok {
			return res, true
		}
	}
	s := g.boxMean(1)
	for _, r := range append(plain[:len(plain):len(plain)], faint...) {
		if res, ok := d.decodeLinearSmoothed(&s, r); ok {
			return res, true
		}
	}
	var got Result
	ok := d.scanTurned(g, func(r Result) bool { got = r; return false })
	return got, ok
}

// anglesOptions are the decoder's options for the linear measurements: the terminal's
// linear codes (ITF of 14 digits, Code 128 also fitted at 12).
func anglesOptions() Options {
	return Options{Formats: Code128 | ITF, ITFLengths: []int{14}, Code128Digits: []int{12}}
}

// anglesFrame draws text as Code 128 (2 px modules) in the middle of a 640×480 paper frame
// turned by deg degrees (bilinear), ink 60 levels on paper 200, with sensor noise of σ
// noise grey levels.
func anglesFrame(t testing.TB, text string, deg, noise float64, rng *rand.Rand) gray {
	t.Helper()
	sym, err := Render(Code128, text, RenderOptions{Module: 2, Height: 70})
	if err != nil {
		t.Fatal(err)
	}
	const W, H = 640, 480
	g := gray{w: W, h: H, pix: make([]byte, W*H)}
	for i := range g.pix {
		g.pix[i] = 200
	}
	b := sym.Bounds()
	x0, y0 := (W-b.Dx())/2, (H-b.Dy())/2
	for y := range b.Dy() {
		for x := range b.Dx() {
			if sym.GrayAt(b.Min.X+x, b.Min.Y+y).Y < 128 {
				g.pix[(y0+y)*W+x0+x] = 60
			}
		}
	}
	g = g.turned(deg)
	for i, v := range g.pix {
		g.pix[i] = byte(min(255, max(0, math.Round(float64(v)+rng.NormFloat64()*noise))))
	}
	return g
}

// TestScanAnglesReadsTurnedCode128 checks the baseline: the multi-angle scanner at 36
// angles, single lines, reads Code 128 symbols turned to angles none of its lines runs at
// (here 17°, 52° and 131°, 2 px modules, light noise) on our locator's candidates, and
// reads nothing on paper without a code.
func TestScanAnglesReadsTurnedCode128(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 36))
	d := NewDecoder(anglesOptions())
	s := angleScan{k: 36, lines: 5}
	for i, deg := range []float64{17, 52, 131} {
		text := randDigits(rng, 12)
		g := anglesFrame(t, text, deg, 3, rng)
		plain, _ := linearCandidates(&g)
		read := false
		for _, r := range plain {
			res, ok := d.scanAngles(&g, r, s)
			if ok && (res.Text != text || res.Format != Code128) {
				t.Fatalf("symbol %d at %v°: read %v %q, want %q", i, deg, res.Format, res.Text, text)
			}
			if ok {
				read = true
				break
			}
		}
		if !read {
			t.Errorf("symbol %d at %v° (%d linear candidates): the scanner at K=36 read nothing", i, deg, len(plain))
		}
	}
	blank := gray{w: 640, h: 480, pix: make([]byte, 640*480)}
	for i := range blank.pix {
		blank.pix[i] = byte(200 + rng.NormFloat64()*3)
	}
	for _, r := range locate(&blank) {
		if res, ok := d.scanAngles(&blank, r, s); ok {
			t.Errorf("a blank frame read %q", res.Text)
		}
	}
}

// anglesApproach is one way of reading a linear candidate, for the measurement and the
// benchmark.
type anglesApproach struct {
	name string
	k    string // the angles it scans: "K", "1 (fitted)", …
	read func(d *Decoder, g *gray, r region) (Result, bool)
}

// anglesApproaches are the per-candidate approaches measured: ours (fitted-angle bands,
// then the candidate as the decoder reads it); the multi-angle scanner at K = 6, 12, 18, 36
// with the classic row methods (derivative edges and a local threshold) on single lines and
// on 3-pixel means, then with our four row methods on 3-pixel means; and snapped to one
// angle, the locator's or the fitted one (what the angle fit buys), on means of 3, 11 and
// 21 lines (our wide bands span 21 px).
func anglesApproaches() []anglesApproach {
	out := []anglesApproach{
		{"ours: fitted-angle bands (no later fits)", "1 (fitted)", (*Decoder).readFittedBands},
		{"ours: decodeLinear (all fits, no retries)", "1 (fitted)", (*Decoder).decodeLinear},
	}
	scan := func(name, k string, s angleScan) anglesApproach {
		return anglesApproach{name, k, func(d *Decoder, g *gray, r region) (Result, bool) { return d.scanAngles(g, r, s) }}
	}
	type variant struct {
		name    string
		avg     int
		allRows bool
	}
	for _, v := range []variant{{"multi-angle, single lines, 2 row methods", 0, false},
		{"multi-angle, 3-px lines, 2 row methods", 1, false}, {"multi-angle, 3-px lines, our 4 row methods", 1, true}} {
		for _, k := range []int{6, 12, 18, 36} {
			out = append(out, scan(v.name, strconv.Itoa(k), angleScan{k: k, avg: v.avg, lines: 5, allRows: v.allRows}))
		}
		if !v.allRows {
			out = append(out, scan(v.name+", fitted angle", "1 (fitted)", angleScan{avg: v.avg, lines: 5, snap: snapFitted}))
		}
	}
	for _, avg := range []int{1, 5, 10} {
		name := fmt.Sprintf("%d-px lines, our 4 row methods, ", 2*avg+1)
		out = append(out, scan(name+"locator's angle", "1 (locator)", angleScan{avg: avg, lines: 5, snap: snapLocator, allRows: true}),
			scan(name+"fitted angle", "1 (fitted)", angleScan{avg: avg, lines: 5, snap: snapFitted, allRows: true}))
	}
	return out
}

// BenchmarkLinearAngles measures the CPU time per linear candidate of each approach on
// synthetic turned Code 128 frames (anglesFrame: 2 px modules, 8 angles, noise σ 6, the
// frame smoothed over 3×3 pixels as a σ 0.8 blur): one op reads one candidate, in turn;
// cpu-ms reports the thread's CPU time (threadCPU) per candidate, median and p99.
func BenchmarkLinearAngles(b *testing.B) {
	rng := rand.New(rand.NewPCG(34, 1))
	type cand struct {
		g *gray
		r region
	}
	var cands []cand
	for _, deg := range []float64{0, 8, 23, 45, 67, 95, 120, 160} {
		g := anglesFrame(b, randDigits(rng, 12), deg, 6, rng)
		s := g.boxMean(1)
		plain, _ := linearCandidates(&s)
		for _, r := range plain {
			cands = append(cands, cand{&s, r})
		}
	}
	for _, a := range anglesApproaches() {
		b.Run(benchName(a), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			d := NewDecoder(anglesOptions())
			ds := make([]time.Duration, 0, b.N)
			for i := 0; b.Loop(); i++ {
				c := cands[i%len(cands)]
				t0 := threadCPU()
				a.read(d, c.g, c.r)
				ds = append(ds, threadCPU()-t0)
			}
			reportSpread(b, ds, "cpu-ms")
		})
	}
}

// benchName is an approach's sub-benchmark name: its name and K without spaces.
func benchName(a anglesApproach) string {
	out := []rune{}
	for _, c := range a.name + " K=" + a.k {
		switch {
		case c == ' ' || c == ',' || c == ':' || c == '(' || c == ')' || c == '\'':
			if len(out) > 0 && out[len(out)-1] != '_' {
				out = append(out, '_')
			}
		default:
			out = append(out, c)
		}
	}
	return strings.TrimRight(string(out), "_")
}
