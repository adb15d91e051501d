//go:build !race && linux

package barcode

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The measurement of 1D at any angle (issue 34; angles_test.go holds the readers):
//
//	BARCODE_ANGLES=N        runs it: N frames per class of the third generator (default 30
//	                        with N=1), Code 128 and ITF, and the envelope's corner (narrow
//	                        module 1.5 px, Gaussian σ 0.8 px, contrast 25 %, every 5° from 0°
//	                        to 180°, BARCODE_ANGLES_REPS frames per angle, default 4)
//	BARCODE_ANGLES_HALF     tuning (default: class seeds 0…, corner seeds 100…) or held-out
//	                        (class seeds 1,000,000…, corner seeds 7,000,000…)
//	BARCODE_GEN3_CLASSES    the classes (default: every class but small and none)
//	BARCODE_GEN3_CACHE      the frame cache
//
// Every frame is located once (locate, not timed); each approach reads the candidates the
// plain pass reads (the first four linear ones that are not faint), in rank, until one
// reads; the retries' row reads the frame as the decoder's whole linear path does. CPU time
// is the reading thread's (threadCPU). It prints one markdown table.

// anglesFrameSet is one set of frames of one symbology.
type anglesFrameSet struct {
	name string
	f    Format
	n    int
	src  func(i int) (sourceFrame, bool, error) // the frame, and whether it lies in the envelope
}

// anglesTally is one approach's outcome on one set.
type anglesTally struct{ n, read, inN, inRead, wrong int }

// anglesResult is one approach's outcomes: per set, and its CPU times.
type anglesResult struct {
	sets        map[string]*anglesTally
	cand, frame []time.Duration
}

func TestLinearAngles(t *testing.T) {
	n := envInt(t, "BARCODE_ANGLES")
	if n == 0 {
		t.Skip("BARCODE_ANGLES unset: the multi-angle measurement runs on request")
	}
	if n == 1 {
		n = 30
	}
	needGen3(t)
	reps := max(1, envInt(t, "BARCODE_ANGLES_REPS"))
	if os.Getenv("BARCODE_ANGLES_REPS") == "" {
		reps = 4
	}
	classBase, cornerBase := 0, 100
	half := os.Getenv("BARCODE_ANGLES_HALF")
	switch half {
	case "held-out":
		classBase, cornerBase = gen3HeldOut, 7_000_000
	case "", "tuning":
		half = "tuning"
	default:
		t.Fatalf("BARCODE_ANGLES_HALF=%q: tuning or held-out", half)
	}
	classes := gen3ClassesUnderTest()
	if os.Getenv("BARCODE_GEN3_CLASSES") == "" {
		classes = slices.DeleteFunc(slices.Clone(gen3Classes), func(c string) bool { return c == "small" })
	}
	var sets []anglesFrameSet
	for _, f := range []Format{Code128, ITF} {
		sets = append(sets, anglesClassSet(t, f, classBase, n, classes), anglesCornerSet(t, f, cornerBase, reps))
	}
	approaches := anglesApproaches()
	results := make([]anglesResult, len(approaches)+1) // the last: ours with the retries
	for i := range results {
		results[i].sets = map[string]*anglesTally{}
	}
	var locateCPU []time.Duration
	turns := map[string][]float64{}
	for _, set := range sets {
		loc, turn := anglesMeasureSet(t, set, approaches, results)
		locateCPU = append(locateCPU, loc...)
		turns[set.name] = append(turns[set.name], turn...)
	}
	anglesTable(t, half, sets, approaches, results, locateCPU)
	for _, name := range []string{"gen3 classes", "corner"} {
		a := turns[name]
		slices.Sort(a)
		if len(a) > 0 {
			t.Logf("%s: the fit turns the locator's angle by %.2f° (median), %.2f° (90th percentile), %.2f° (most) on the first linear candidate (%d frames)",
				name, a[len(a)/2], a[len(a)*9/10], a[len(a)-1], len(a))
		}
	}
}

// anglesClassSet is the third generator's class frames of f: n per class from seed base.
func anglesClassSet(t *testing.T, f Format, base, n int, classes []string) anglesFrameSet {
	gen3Prefetch(t, (n+gen3Batch-1)/gen3Batch*len(classes), func(i int) (sourceFrame, error) {
		return gen3Frame(f, base+i/len(classes)*gen3Batch, classes[i%len(classes)])
	})
	src := gen3Source(f, base, classes)
	return anglesFrameSet{name: "gen3 classes", f: f, n: n * len(classes), src: func(i int) (sourceFrame, bool, error) {
		sf, err := src(i)
		if err != nil {
			return sf, false, err
		}
		p, err := parseGen3Params(sf.info)
		return sf, err == nil && p.inEnvelope(), err
	}}
}

// anglesCornerSet is the envelope's corner of f: the sweep's frames (frame.sh sweep, as
// TestGen3Sweep draws them) at narrow module 1.5 px, σ 0.8 px, contrast 25 %, every 5° from
// 0° to 180°, reps frames per angle from seed base; all of them in the envelope.
func anglesCornerSet(t *testing.T, f Format, base, reps int) anglesFrameSet {
	var angles []float64
	for a := 0; a <= 180; a += 5 {
		angles = append(angles, float64(a))
	}
	al := joinFloats(angles)
	dir := filepath.Join(gen3Cache(), gen3Sym(f))
	group := func(rep int) string { return filepath.Join(dir, fmt.Sprintf("sweep-1.5-%d", base+rep)) }
	gen3Prefetch(t, reps, func(rep int) (sourceFrame, error) {
		return sourceFrame{}, gen3Run(group(rep)+"-"+al+"-0.8-25.done", dir, gen3Sym(f), "sweep",
			fmt.Sprint(base+rep), "1.5", al, "0.8", "25")
	})
	return anglesFrameSet{name: "corner", f: f, n: len(angles) * reps, src: func(i int) (sourceFrame, bool, error) {
		a, rep := angles[i%len(angles)], i/len(angles)
		b := group(rep)
		sf, err := gen3Load(b+".txt", fmt.Sprintf("%s_a%s_b0.8_c25.png", b, ftoa(a)), "png", "corner")
		sf.info = fmt.Sprintf("corner angle %v seed %d", a, base+rep)
		return sf, true, err
	}}
}

// anglesMeasureSet reads every frame of set with every approach (two workers, each on its
// own locked thread and decoder) into results; it returns the locator's CPU time per frame
// and, per frame with a linear candidate, how far (degrees) the fit (refineAngle) turns the
// first candidate's angle.
func anglesMeasureSet(t *testing.T, set anglesFrameSet, approaches []anglesApproach, results []anglesResult) ([]time.Duration, []float64) {
	var mu sync.Mutex
	var locCPU []time.Duration
	var turns []float64
	var firstErr error
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			d := NewDecoder(anglesOptions())
			for i := w; i < set.n; i += 2 {
				sf, in, err := set.src(i)
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
				g := toGray(sf.img)
				t0 := threadCPU()
				plain, faint := linearCandidates(&g)
				loc := threadCPU() - t0
				outs := make([]anglesOutcome, len(results))
				for a, ap := range approaches {
					outs[a] = anglesReadFrame(d, &g, plain, ap.read)
				}
				t0 = threadCPU()
				res, ok := d.readWithRetries(&g, plain, faint)
				outs[len(approaches)] = anglesOutcome{res: res, ok: ok, frame: threadCPU() - t0}
				mu.Lock()
				locCPU = append(locCPU, loc)
				if len(plain) > 0 {
					turns = append(turns, angleDiff(plain[0].angle, refineAngle(&g, plain[0]))*180/math.Pi)
				}
				for a, o := range outs {
					anglesRecord(t, set, &results[a], o, sf, in)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		t.Fatal(firstErr)
	}
	return locCPU, turns
}

// anglesOutcome is one approach's read of one frame and its CPU times.
type anglesOutcome struct {
	res   Result
	ok    bool
	cand  []time.Duration // per candidate read
	frame time.Duration   // all the candidates read, until one read
}

// anglesReadFrame reads the candidates with read, in rank, until one reads.
func anglesReadFrame(d *Decoder, g *gray, plain []region, read func(*Decoder, *gray, region) (Result, bool)) anglesOutcome {
	var o anglesOutcome
	for _, r := range plain {
		t0 := threadCPU()
		res, ok := read(d, g, r)
		dt := threadCPU() - t0
		o.cand = append(o.cand, dt)
		o.frame += dt
		if ok {
			o.res, o.ok = res, true
			break
		}
	}
	return o
}

// anglesRecord adds a frame's outcome to an approach's results (a wrong read is logged).
func anglesRecord(t *testing.T, set anglesFrameSet, res *anglesResult, o anglesOutcome, sf sourceFrame, in bool) {
	key := set.name + " " + set.f.String()
	c := res.sets[key]
	if c == nil {
		c = &anglesTally{}
		res.sets[key] = c
	}
	right := o.ok && o.res.Text == sf.text && o.res.Format == set.f
	c.n++
	c.read += b2i(right)
	if in {
		c.inN++
		c.inRead += b2i(right)
	}
	if o.ok && !right {
		c.wrong++
		t.Logf("WRONG READ %v %q (want %q): %s", o.res.Format, o.res.Text, sf.text, sf.info)
	}
	res.cand = append(res.cand, o.cand...)
	res.frame = append(res.frame, o.frame)
}

// anglesTable logs the table: per approach, the read rate in the envelope per set, the
// wrong reads, and the CPU time per candidate and per frame (median / p99).
func anglesTable(t *testing.T, half string, sets []anglesFrameSet, approaches []anglesApproach, results []anglesResult, loc []time.Duration) {
	var b strings.Builder
	fmt.Fprintf(&b, "1D at any angle, %s frames: read in the envelope (read / frames), CPU per linear candidate and per frame\n\n", half)
	b.WriteString("| approach | K |")
	for _, s := range sets {
		fmt.Fprintf(&b, " %s %v |", s.name, s.f)
	}
	b.WriteString(" wrong | CPU ms/candidate median / p99 | CPU ms/frame median / p99 |\n|---|---|")
	b.WriteString(strings.Repeat("---|", len(sets)+3) + "\n")
	for i, r := range results {
		name, k := "ours: decodeLinear + smoothed pass + turned retry", "1 (fitted)"
		if i < len(approaches) {
			name, k = approaches[i].name, approaches[i].k
		}
		fmt.Fprintf(&b, "| %s | %s |", name, k)
		wrong := 0
		for _, s := range sets {
			c := r.sets[s.name+" "+s.f.String()]
			fmt.Fprintf(&b, " %s %% (%d/%d) |", pct(c.inRead, c.inN), c.inRead, c.inN)
			wrong += c.wrong
		}
		fmt.Fprintf(&b, " %d | %s | %s |\n", wrong, msSpread(r.cand), msSpread(r.frame))
	}
	fmt.Fprintf(&b, "\nthe locator (not counted above): %s ms per frame\n", msSpread(loc))
	t.Log(b.String())
}

// msSpread is the median and 99th percentile of ds in ms ("–" when empty).
func msSpread(ds []time.Duration) string {
	if len(ds) == 0 {
		return "–"
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	return fmt.Sprintf("%.2f / %.1f", ms(s[len(s)/2]), ms(s[len(s)*99/100]))
}
