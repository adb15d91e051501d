//go:build !race

package barcode

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The sweep (issue 34): per symbology, a grid of angle × narrow module × Gaussian blur ×
// contrast of the third generator's frames (class sweep), a few frames per cell, read by
// ours, gozxing alone (TRY_HARDER, 1D also turned by 90°) and zbarimg; per-cell read rates
// drawn as a PNG heat map (docs/codes.md says how to read it).
//
//	BARCODE_SWEEP=NAME  runs it; NAME names the heat maps (docs/codes-sweep-NAME-SYM.png)
//	SWEEP_ANGLE_STEP    degrees between angles from 0 to 180 (default 15)
//	SWEEP_MODULES       narrow modules in px, comma-separated (default 1,1.5,2,3)
//	SWEEP_BLURS         Gaussian σ in px (default 0,0.8,1.5)
//	SWEEP_CONTRASTS     contrast in % (default 15,25,100)
//	SWEEP_REPS          frames per cell (default 1)
//	SWEEP_OTHERS=0      ours alone (no gozxing, no zbarimg)
//	SWEEP_SEED          the first frame's seed (default 7000000, held out; a seed under
//	                    1000000 draws tuning frames)

type sweepGrid struct {
	angles, modules, blurs, contrasts []float64
	reps                              int
	seed                              int
}

func (g sweepGrid) cells() int {
	return len(g.angles) * len(g.modules) * len(g.blurs) * len(g.contrasts)
}

// cell returns the parameters of cell c (angle fastest, then module, blur, contrast).
func (g sweepGrid) cell(c int) (a, m, b, k int) {
	a = c % len(g.angles)
	c /= len(g.angles)
	m = c % len(g.modules)
	c /= len(g.modules)
	b = c % len(g.blurs)
	k = c / len(g.blurs)
	return
}

func floats(t testing.TB, env, def string) []float64 {
	v := os.Getenv(env)
	if v == "" {
		v = def
	}
	var out []float64
	for _, s := range strings.Split(v, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", env, v, err)
		}
		out = append(out, x)
	}
	return out
}

func sweepFromEnv(t testing.TB) sweepGrid {
	step := envInt(t, "SWEEP_ANGLE_STEP")
	if step <= 0 {
		step = 15
	}
	var g sweepGrid
	for a := 0; a <= 180; a += step {
		g.angles = append(g.angles, float64(a))
	}
	g.modules = floats(t, "SWEEP_MODULES", "1,1.5,2,3")
	g.blurs = floats(t, "SWEEP_BLURS", "0,0.8,1.5")
	g.contrasts = floats(t, "SWEEP_CONTRASTS", "15,25,100")
	g.reps = max(1, envInt(t, "SWEEP_REPS"))
	g.seed = 7_000_000
	if s := envInt(t, "SWEEP_SEED"); s > 0 {
		g.seed = s
	}
	return g
}

func joinFloats(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = ftoa(x)
	}
	return strings.Join(s, ",")
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// sweepCounts holds one reader's reads per cell.
type sweepCounts struct{ n, ours, zxing, zbar, wrong []int }

func TestGen3Sweep(t *testing.T) {
	name := os.Getenv("BARCODE_SWEEP")
	if name == "" {
		t.Skip("BARCODE_SWEEP unset: the sweep runs on request")
	}
	needGen3(t)
	g := sweepFromEnv(t)
	if os.Getenv("SWEEP_OTHERS") == "0" {
		t.Setenv("COMPARE", "0")
	}
	for _, f := range formatsUnderTest() {
		total := g.cells() * g.reps
		angles, blurs, contrasts := joinFloats(g.angles), joinFloats(g.blurs), joinFloats(g.contrasts)
		dir := filepath.Join(gen3Cache(), gen3Sym(f))
		// One script run draws every angle × blur × contrast of a (module, frame).
		groupBase := func(m, rep int) string {
			return filepath.Join(dir, fmt.Sprintf("sweep-%s-%d", ftoa(g.modules[m]), g.seed+rep))
		}
		gen3Prefetch(t, len(g.modules)*g.reps, func(i int) (sourceFrame, error) {
			m, rep := i/g.reps, i%g.reps
			// The text file is written last, but only once per (module, frame): a grid
			// with other angles, blurs or contrasts needs its own frames (checked below).
			return sourceFrame{}, gen3Run(groupBase(m, rep)+"-"+angles+"-"+blurs+"-"+contrasts+".done", dir, gen3Sym(f), "sweep",
				fmt.Sprint(g.seed+rep), ftoa(g.modules[m]), angles, blurs, contrasts)
		})
		src := func(i int) (sourceFrame, error) {
			c, rep := i/g.reps, i%g.reps
			a, m, b, k := g.cell(c)
			base := groupBase(m, rep)
			sf, err := gen3Load(base+".txt", fmt.Sprintf("%s_a%s_b%s_c%s.png", base, ftoa(g.angles[a]), ftoa(g.blurs[b]), ftoa(g.contrasts[k])), "png", "")
			sf.class = fmt.Sprintf("%s %s %s %s", ftoa(g.modules[m]), ftoa(g.angles[a]), ftoa(g.blurs[b]), ftoa(g.contrasts[k]))
			sf.info = "module angle blur contrast " + sf.class
			return sf, err
		}
		out := measureSet(t, f, indices(0, total), src, os.Getenv("SWEEP_OTHERS") != "0")
		sc := sweepCounts{n: make([]int, g.cells()), ours: make([]int, g.cells()), zxing: make([]int, g.cells()),
			zbar: make([]int, g.cells()), wrong: make([]int, g.cells())}
		for i, o := range out {
			c := i / g.reps
			sc.n[c]++
			sc.ours[c] += b2i(o.ours)
			sc.zxing[c] += b2i(o.zxing)
			sc.zbar[c] += b2i(o.zbar)
			sc.wrong[c] += b2i(o.oursWrong)
			if o.oursWrong {
				t.Errorf("%v WRONG READ %q (want %q) %s", f, o.got, o.want, o.info)
			}
		}
		sweepReport(t, f, g, sc, out)
		if err := writeHeatMap(filepath.Join(repoRoot(), "docs", fmt.Sprintf("codes-sweep-%s-%s.png", name, gen3Sym(f))), f, g, sc); err != nil {
			t.Fatal(err)
		}
	}
}

// sweepReport logs, per module × blur × contrast (all angles), the read rates of the three
// readers, and the envelope figure: every cell with module ≥ 1.5, blur ≤ 0.8, contrast ≥ 25.
func sweepReport(t *testing.T, f Format, g sweepGrid, sc sweepCounts, out []frameOutcome) {
	var b strings.Builder
	fmt.Fprintf(&b, "| %v | module px | blur σ | contrast %% | frames | ours | gozxing | zbarimg |\n|---|---|---|---|---|---|---|---|\n", f)
	var env tally
	for k := range g.contrasts {
		for bl := range g.blurs {
			for m := range g.modules {
				var a tally
				for an := range g.angles {
					c := an + len(g.angles)*(m+len(g.modules)*(bl+len(g.blurs)*k))
					a.n += sc.n[c]
					a.ours += sc.ours[c]
					a.zxing += sc.zxing[c]
					a.zbar += sc.zbar[c]
					a.wrong += sc.wrong[c]
				}
				in := g.modules[m] >= 1.5 && g.blurs[bl] <= 0.8 && g.contrasts[k] >= 25
				if in {
					env.n += a.n
					env.ours += a.ours
					env.zxing += a.zxing
					env.zbar += a.zbar
					env.wrong += a.wrong
				}
				zx, zb := pct(a.zxing, a.n), pct(a.zbar, a.n)
				if f == DataMatrix {
					zb = "n/a"
				}
				if !compareOthers() {
					zx, zb = "–", "–"
				}
				fmt.Fprintf(&b, "| | %s | %s | %s | %d | %s | %s | %s |\n", ftoa(g.modules[m]), ftoa(g.blurs[bl]),
					ftoa(g.contrasts[k]), a.n, pct(a.ours, a.n), zx, zb)
			}
		}
	}
	fmt.Fprintf(&b, "envelope (module ≥ 1.5, blur ≤ 0.8, contrast ≥ 25, every angle): %d frames, ours %s %%, gozxing %s %%, zbarimg %s %%, wrong %d\n",
		env.n, pct(env.ours, env.n), pct(env.zxing, env.n), pct(env.zbar, env.n), env.wrong)
	for _, o := range out {
		m, an, bl, k := 0.0, 0.0, 0.0, 0.0
		fmt.Sscanf(o.class, "%g %g %g %g", &m, &an, &bl, &k)
		if !o.ours && m >= 1.5 && bl <= 0.8 && k >= 25 {
			fmt.Fprintf(&b, "  missed in the envelope: %s (zxing %v zbar %v)\n", o.info, o.zxing, o.zbar)
		}
	}
	t.Logf("\n%s", b.String())
}

// writeHeatMap draws the read rates: one block per reader (ours, gozxing, zbarimg; top to
// bottom; ours alone with SWEEP_OTHERS=0), in each a panel per blur (rows, top: none) and contrast (columns, left: the
// highest), in each panel angle left to right (0–180°) and module top to bottom (smallest
// first). Dark green: ≥ 99.5 %; yellow to red: lower; grey: not measured.
func writeHeatMap(path string, f Format, g sweepGrid, sc sweepCounts) error {
	const cw, ch, gap = 4, 6, 3
	pw, ph := len(g.angles)*cw, len(g.modules)*ch
	nc, nb := len(g.contrasts), len(g.blurs)
	bw, bh := nc*(pw+gap)+gap, nb*(ph+gap)+gap
	readers := [][]int{sc.ours, sc.zxing, sc.zbar}
	switch {
	case !compareOthers():
		readers = readers[:1] // ours alone (SWEEP_OTHERS=0)
	case f == DataMatrix:
		readers = readers[:2] // zbarimg reads no DataMatrix
	}
	img := image.NewRGBA(image.Rect(0, 0, bw, len(readers)*(bh+2*gap)))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for r, reads := range readers {
		oy := r * (bh + 2*gap)
		for x := range bw {
			for y := oy; y < oy+bh; y++ {
				img.Set(x, y, color.RGBA{40, 40, 40, 255})
			}
		}
		for c := range g.cells() {
			a, m, b, k := g.cell(c)
			col := nc - 1 - k // highest contrast on the left
			x0 := gap + col*(pw+gap) + a*cw
			y0 := oy + gap + b*(ph+gap) + m*ch
			fill := heatColor(reads[c], sc.n[c])
			for y := y0; y < y0+ch; y++ {
				for x := x0; x < x0+cw; x++ {
					img.Set(x, y, fill)
				}
			}
		}
	}
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(fh, img); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

func heatColor(k, n int) color.RGBA {
	if n == 0 {
		return color.RGBA{128, 128, 128, 255}
	}
	r := float64(k) / float64(n)
	if r >= 0.995 {
		return color.RGBA{0, 130, 0, 255}
	}
	// red (0) to yellow (just under 1)
	return color.RGBA{220, uint8(220 * r), 0, 255}
}
