package barcode

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// TestMatrixFittedFrames reads QR and DataMatrix frames at issue 34's matrix corner at its
// lowest contrast: 1.5-px modules blurred σ 0.8, 25 % contrast (the third generator's sweep
// frames of the tuning seed 500003, QR at 20° and 110°, DataMatrix at 70° and 160°, cut to
// 120×120 px around the symbol). Without the fitted pass (matrix_fit.go) none reads: the
// finder patterns and the L are blobs, and the modules' ripple is under the sensor noise
// once deconvolved; with it each reads its text, as nothing else. (The DataMatrix frame
// at 160° reads also by our reader's hypotheses fitted by least squares, dm_lsq.go,
// through ordered statistics, osd.go: 16 bits of the block's 112 least sure set right.
// The frames are read without those too.) Under -race (every
// pass of the decoder runs on these frames: seconds each) the first frame of each
// symbology is read, with the pass only.
func TestMatrixFittedFrames(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "gen3-fit", "*.png"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no frames: %v", err)
	}
	if raceEnabled {
		files = []string{files[0], files[len(files)-1]}
	}
	var off func(*Decoder) // under -race the pass is only read, not shown needed
	if !raceEnabled {
		off = func(d *Decoder) { d.noFit, d.noOSD = true, true }
	}
	readOnlyWith(t, files, "the fitted pass: the frame no longer shows what the pass is for", off)
}

// blurredGrid draws a dim×dim grid of modules (dark: dark[j·dim+i]) with qz modules of
// paper round it, turned by theta about the image's centre at pitch px per module, as a
// camera would see it: the print drawn 8× finer, blurred there by a Gaussian of sigma frame
// pixels, averaged over each frame pixel, at paper level paper and ink paper − contrast,
// plus Gaussian noise of σ noise. It shares no code with the fit (no share formula).
func blurredGrid(dark []bool, dim int, pitch, theta, sigma, paper, contrast, noise float64, rng *rand.Rand) (gray, fitGrid) {
	side := int(math.Ceil((float64(dim)+8)*pitch*1.5)) + 8
	cx, cy := float64(side)/2, float64(side)/2
	grid := newFitGrid(cx, cy, theta, pitch, pitch, dim, dim)
	return blurredGridAt(dark, dim, &grid, side, sigma, paper, contrast, noise, rng), grid
}

// blurredGridAt draws dark on grid (affine or in perspective) as blurredGrid does, on a
// side×side image.
func blurredGridAt(dark []bool, dim int, grid interface {
	inv(x, y float64) (u, v float64)
}, side int, sigma, paper, contrast, noise float64, rng *rand.Rand) gray {
	const k = 8
	hs := side * k
	hi := make([]float64, hs*hs)
	for y := range hs {
		for x := range hs {
			fx, fy := (float64(x)+0.5)/k-0.5, (float64(y)+0.5)/k-0.5 // frame coordinates (pixel centres at integers)
			u, v := grid.inv(fx, fy)
			i, j := int(math.Floor(u)), int(math.Floor(v))
			if i >= 0 && j >= 0 && i < dim && j < dim && dark[j*dim+i] {
				hi[y*hs+x] = 1
			}
		}
	}
	// Gaussian blur in the fine image, separable.
	s := sigma * k
	r := int(math.Ceil(3 * s))
	ker := make([]float64, 2*r+1)
	var sum float64
	for i := range ker {
		d := float64(i - r)
		ker[i] = math.Exp(-d * d / (2 * s * s))
		sum += ker[i]
	}
	for i := range ker {
		ker[i] /= sum
	}
	tmp := make([]float64, len(hi))
	for y := range hs {
		for x := range hs {
			var a float64
			for i, w := range ker {
				a += w * hi[y*hs+min(max(x+i-r, 0), hs-1)]
			}
			tmp[y*hs+x] = a
		}
	}
	for y := range hs {
		for x := range hs {
			var a float64
			for i, w := range ker {
				a += w * tmp[min(max(y+i-r, 0), hs-1)*hs+x]
			}
			hi[y*hs+x] = a
		}
	}
	g := gray{w: side, h: side, pix: make([]byte, side*side)}
	for y := range side {
		for x := range side {
			var a float64
			for b := range k {
				for c := range k {
					a += hi[(y*k+b)*hs+x*k+c]
				}
			}
			v := paper - contrast*a/(k*k) + noise*rng.NormFloat64()
			g.pix[y*side+x] = byte(max(0, min(255, math.Round(v))))
		}
	}
	return g
}

// TestFitModulesSyntheticGrid checks the least-squares module sampler (matrix_fit_ls.go) on
// a version-2 QR grid of random data modules drawn apart from it (blurredGrid): 1.5-px
// modules from 30°, blur σ 0.8 over the pixels' own size, 25 % contrast (50 levels), noise
// σ 3, at four angles (one under -race). Given the grid, the fit must decide at least 99 %
// of the data modules right, where the level at each module's centre against the
// paper/ink midpoint decides at most 90 %.
func TestFitModulesSyntheticGrid(t *testing.T) {
	const dim = 25
	rng := rand.New(rand.NewPCG(34, 1))
	kn := qrFitKnown(dim)
	q := kn.q
	dark := make([]bool, dim*dim)
	isData := make([]bool, dim*dim)
	for j := range dim {
		for i := range dim {
			m := j*dim + i
			switch k := kn.mods[(j+q)*(dim+2*q)+i+q]; k {
			case -1:
				dark[m], isData[m] = rng.IntN(2) == 1, true
			default:
				dark[m] = k == 1
			}
		}
	}
	var fitErrs, naiveErrs, n int
	reps := 4
	if raceEnabled {
		reps = 1
	}
	for rep := range reps {
		theta := math.Pi/6 + float64(rep)*0.37
		g, grid := blurredGrid(dark, dim, 1.5, theta, 0.8, 200, 50, 3, rng)
		win := newFitWin(&g, float64(g.w)/2, float64(g.h)/2, g.w/2)
		sol, ok := fitModules(&win, grid, fitSigmas[0], kn, fitMargins)
		if !ok {
			t.Fatalf("turn %d: no fit", rep)
		}
		if math.Abs(sol.paper-200) > 5 || math.Abs(sol.ink-50) > 8 {
			t.Errorf("turn %d: paper %.1f, contrast %.1f; want 200 and 50", rep, sol.paper, sol.ink)
		}
		for m, d := range isData {
			if !d {
				continue
			}
			n++
			if (sol.dark[m] > 0.5) != dark[m] {
				fitErrs++
			}
			x, y := grid.at(float64(m%dim)+0.5, float64(m/dim)+0.5)
			if (win.at(x, y) < 175) != dark[m] {
				naiveErrs++
			}
		}
	}
	t.Logf("data modules wrong: fit %d, centre level %d, of %d", fitErrs, naiveErrs, n)
	if float64(fitErrs) > 0.01*float64(n) {
		t.Errorf("fit decided %d of %d data modules wrong, want ≤ 1 %%", fitErrs, n)
	}
	if float64(naiveErrs) < 0.1*float64(n) {
		t.Errorf("the centre levels decided only %d of %d wrong: the grid is not hard enough to show the fit", naiveErrs, n)
	}
}

// TestMatrixFittedRefusesRandomData: symbols whose fixed modules are right and whose data
// modules are random (a QR version-2 and an 18×18 DataMatrix structure, drawn as
// blurredGrid draws them at 1.5-px modules, 25 % contrast) match the fitted pass's grid
// perfectly and are fitted and read; none may read as any text, and most must get as far
// as being read (their grid matched). Four of each (one under -short; skipped under -race).
func TestMatrixFittedRefusesRandomData(t *testing.T) {
	skipUnderRace(t)
	n := 4
	if testing.Short() {
		n = 1
	}
	rng := rand.New(rand.NewPCG(34, 2))
	d := NewDecoder(Options{Formats: AllFormats})
	for _, sym := range []struct {
		name string
		dim  int
		kn   fitKnown
	}{{"qr", 25, qrFitKnown(25)}, {"dm", 18, dmFitKnown(18)}} {
		sampled := 0
		for i := range n {
			g, grid := blurredGrid(randomData(sym.dim, sym.kn, rng), sym.dim, 1.5, rng.Float64()*2*math.Pi, 0.8, 200, 50, 3, rng)
			cx, cy := grid.at(float64(sym.dim)/2, float64(sym.dim)/2)
			half := 1.5 * float64(sym.dim) / 2
			r := region{cx: cx, cy: cy, halfU: half, halfV: half}
			if res, ok, _ := d.decodeFitted(&g, r); ok {
				t.Errorf("%s %d: random data read as %q", sym.name, i, res.Text)
			}
			s, _ := cropSpan(r)
			win := newFitWin(&g, r.cx, r.cy, int(math.Ceil(s)))
			if st, ok := fitStartOf(&win, r, false); ok {
				if len(d.fitHypotheses(&win, st)) > 0 {
					sampled++
				}
			}
		}
		if 2*sampled < n {
			t.Errorf("%s: %d of %d grids matched: the test no longer reaches the reads", sym.name, sampled, n)
		}
	}
}

// randomData returns a dim×dim symbol whose fixed modules (kn) are right and whose data
// modules are random.
func randomData(dim int, kn fitKnown, rng *rand.Rand) []bool {
	q := kn.q
	dark := make([]bool, dim*dim)
	for m := range dark {
		switch k := kn.mods[(m/dim+q)*(dim+2*q)+m%dim+q]; k {
		case -1:
			dark[m] = rng.IntN(2) == 1
		default:
			dark[m] = k == 1
		}
	}
	return dark
}

// TestMatrixFittedEarlyUnderBudget: under a time budget (a camera frame) the fitted pass
// runs right after the equalised pass (matrixPassOrder), where last it started only after
// every other pass had run. Two whole 640×480 frames of the third generator's tuning sweep
// at issue 34's corner (seed 500004, 30°, 1.5-px modules blurred σ 0.8, 25 % contrast, QR
// and DataMatrix; only the fitted pass reads them) are decoded with the camera's Full budget
// of 40 ms on a clock that moves on 625 µs at each of the decoder's readings (stepClock: 64
// readings a budget, the test never sleeps): each reads. Kept last (fitLate), the
// DataMatrix frame gives up before the pass; the QR frame reads there too, since the
// magnified pass finds its finders by correlation and fits from them (qr_finders.go), a
// step of its own. The readings are the decoder's steps, not its time: what the pass costs
// in time is BenchmarkMatrixCornerFrame's.
func TestMatrixFittedEarlyUnderBudget(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "gen3-corner", "*.png"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no frames: %v", err)
	}
	for _, fn := range files {
		img, want := loadCrop(t, fn)
		for _, late := range []bool{false, true} {
			clk := &stepClock{FakeClock: clockwork.NewFakeClock(), step: 625 * time.Microsecond}
			d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}, Budget: DefaultCadence().Full, Clock: clk})
			d.fitLate = late
			r, err := d.Decode(img)
			switch read := err == nil && r.Text == want; {
			case !late && !read:
				t.Errorf("%s: %q, %v under the Full budget (%d readings of the clock)", filepath.Base(fn), r.Text, err, clk.reads)
			case late && read && !strings.HasPrefix(filepath.Base(fn), "qr-"):
				t.Errorf("%s: read with the fitted pass last: the frame no longer shows the order", filepath.Base(fn))
			case err == nil && r.Text != want:
				t.Errorf("%s: WRONG read %q", filepath.Base(fn), r.Text)
			}
		}
	}
}

// affineRead reads candidate r of g as the fitted pass did before it knew perspective: each
// affine hypothesis (fitHypotheses) read as readCandidate reads it.
func affineRead(d *Decoder, g *gray, r region) (Result, bool) {
	s, _ := cropSpan(r)
	win := newFitWin(g, r.cx, r.cy, int(math.Ceil(s)))
	st, ok := fitStartOf(&win, r, false)
	if !ok {
		return Result{}, false
	}
	for _, h := range d.fitHypotheses(&win, st) {
		if res, ok := d.readFitted(&win, h, h.dm, true); ok {
			return res, true
		}
	}
	return Result{}, false
}
