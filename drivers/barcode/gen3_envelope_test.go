//go:build !race

package barcode

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Issue 34's envelope, applied to the third generator's class frames: a frame is in the
// envelope when its narrowest module (the perspective's shrinking included: frame.sh writes
// it as narrow=) is ≥ 1.5 px, its blur ≤ 0.8 px (the Gaussian σ and the motion blur's σ
// added in quadrature: motion counts as blur) and its contrast ≥ 25 %.

// gen3Params are the parameters a class frame's text file holds (frame.sh's second line).
type gen3Params struct {
	seed                    int
	module, narrow          float64 // narrow: the narrowest module after perspective (px)
	blur, mblur, contrast   float64 // Gaussian σ, motion blur σ (px); contrast (%)
	angle, noise            float64
	persp, light, clutter   bool
	jpeg                    bool
	quality                 int
	jpegRMS, jpegMF         float64 // JPEG's error at the symbol, and at a module's matched filter (grey levels; frame.sh since the JPEG limit)
	hasNarrow, hasMotionSig bool    // the file says narrow= and mblur= (frame.sh since issue 34's classes round)
}

// parseGen3Params reads the "key=value …" line of a class frame's text file.
func parseGen3Params(info string) (gen3Params, error) {
	var p gen3Params
	for _, kv := range strings.Fields(info) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		num := func() float64 {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return math.NaN()
			}
			return x
		}
		switch k {
		case "seed":
			p.seed = int(num())
		case "module":
			p.module = num()
		case "narrow":
			p.narrow, p.hasNarrow = num(), true
		case "blur":
			p.blur = num()
		case "mblur":
			p.mblur, p.hasMotionSig = num(), true
		case "contrast":
			p.contrast = num()
		case "angle":
			p.angle = num()
		case "noise":
			p.noise = num()
		case "persp":
			p.persp = v == "1"
		case "light":
			p.light = v == "1"
		case "clutter":
			p.clutter = v == "1"
		case "jpeg":
			p.jpeg = v == "1"
		case "quality":
			p.quality = int(num())
		case "jpegrms":
			p.jpegRMS = num()
		case "jpegmf":
			p.jpegMF = num()
		}
	}
	if p.module == 0 {
		return p, fmt.Errorf("gen3 parameters without module=: %q", info)
	}
	if !p.hasNarrow {
		p.narrow = p.module // an older text file: no perspective figure
	}
	return p, nil
}

// sigma is the frame's blur: the Gaussian and the motion blur in quadrature.
func (p gen3Params) sigma() float64 { return math.Hypot(p.blur, p.mblur) }

// inEnvelope reports whether the frame lies in issue 34's envelope.
func (p gen3Params) inEnvelope() bool {
	return p.narrow >= 1.5 && p.sigma() <= 0.8 && p.contrast >= 25
}

// String is the short form of a frame's parameters for the logs.
func (p gen3Params) String() string {
	s := fmt.Sprintf("seed %d narrow %.2f px (module %.2f) σ %.2f", p.seed, p.narrow, p.module, p.sigma())
	if p.mblur > 0 {
		s += fmt.Sprintf(" (motion %.2f)", p.mblur)
	}
	s += fmt.Sprintf(" contrast %.0f %% angle %.0f°", p.contrast, p.angle)
	if p.persp {
		s += " persp"
	}
	if p.light {
		s += " light"
	}
	if p.jpeg {
		s += fmt.Sprintf(" jpeg q%d", p.quality)
	}
	if p.noise > 2 {
		s += fmt.Sprintf(" noise %.1f", p.noise)
	}
	if p.clutter {
		s += " clutter"
	}
	return s
}

// envelopeCount is a class's reads among all its frames, among those in the envelope, and
// among those in the envelope within the readable limit (limit_test.go: beyondLimit).
type envelopeCount struct{ n, read, inN, inRead, limN, limRead int }

// summarizeEnvelope logs, per class, read / frames and read / frames in the envelope (a
// markdown row per class), each frame's narrow module with FRAMES_VERBOSE, and every miss
// with its parameters (in-envelope misses first). It returns the in-envelope totals.
func summarizeEnvelope(t testing.TB, set string, f Format, out []frameOutcome) envelopeCount {
	t.Helper()
	by := map[string]*envelopeCount{}
	var total envelopeCount
	var inMiss, outMiss, frames []string
	for _, o := range out {
		p, err := parseGen3Params(o.info)
		if err != nil {
			t.Fatal(err)
		}
		c := by[o.class]
		if c == nil {
			c = &envelopeCount{}
			by[o.class] = c
		}
		in := p.inEnvelope()
		beyond, genie := false, 1.0
		if in {
			beyond, genie = beyondLimit(f, p, o.info)
		}
		for _, a := range []*envelopeCount{c, &total} {
			a.n++
			a.read += b2i(o.ours)
			if in {
				a.inN++
				a.inRead += b2i(o.ours)
			}
			if in && !beyond {
				a.limN++
				a.limRead += b2i(o.ours)
			}
		}
		line := fmt.Sprintf("%s %s", o.class, p)
		switch {
		case beyond && p.jpegFilterRMS() > 0:
			line += fmt.Sprintf(" (beyond the readable limit: the genie reads %.0f %%, an estimate with JPEG's error %.1f at the filter)", 100*genie, p.jpegFilterRMS())
		case beyond:
			line += fmt.Sprintf(" (beyond the readable limit: the genie's bound reads %.0f %%)", 100*genie)
		}
		if os.Getenv("FRAMES_VERBOSE") != "" {
			frames = append(frames, fmt.Sprintf("%s in=%v read=%v", line, in, o.ours))
		}
		switch {
		case o.ours:
		case in:
			inMiss = append(inMiss, line)
		default:
			outMiss = append(outMiss, line)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| %s | %v |", set, f)
	for _, c := range gen3Classes {
		if a := by[c]; a != nil {
			fmt.Fprintf(&b, " %d/%d (%d/%d) |", a.read, a.n, a.inRead, a.inN)
		}
	}
	fmt.Fprintf(&b, " **%d/%d (%d/%d)** |\n", total.read, total.n, total.inRead, total.inN)
	fmt.Fprintf(&b, "| %s | %v, in the envelope within the readable limit |", set, f)
	for _, c := range gen3Classes {
		if a := by[c]; a != nil {
			fmt.Fprintf(&b, " %d/%d |", a.limRead, a.limN)
		}
	}
	fmt.Fprintf(&b, " **%d/%d** |\n", total.limRead, total.limN)
	t.Logf("%s %v per class: read/frames (in the envelope: read/frames)\n%s", set, f, b.String())
	for _, l := range frames {
		t.Logf("  frame %s", l)
	}
	for _, l := range inMiss {
		t.Logf("  %v MISS in the envelope: %s", f, l)
	}
	for _, l := range outMiss {
		t.Logf("  %v miss outside the envelope: %s", f, l)
	}
	return total
}

// TestGen3ParamsEnvelope checks the envelope's accounting on text lines as frame.sh writes
// them.
func TestGen3ParamsEnvelope(t *testing.T) {
	for _, c := range []struct {
		info string
		in   bool
	}{
		{"sym=qr seed=0 class=perspective module=2.1203 angle=121.8493 blur=0.2305 contrast=90.3388 paper=86.8060 persp=1 motion=0 light=0 jpeg=0 noise=2 clutter=0 narrow=1.815 mblur=0 quality=0", true},
		{"sym=qr seed=2 class=perspective module=1.6478 angle=296.6198 blur=0.2325 contrast=87.1299 paper=87.3794 persp=1 motion=0 light=0 jpeg=0 noise=2 clutter=0 narrow=1.363 mblur=0 quality=0", false},
		{"sym=code128 seed=0 class=mixed module=1.9311 angle=194.0515 blur=0.2168 contrast=92.4034 paper=79.8242 persp=0 motion=1 light=0 jpeg=1 noise=2 clutter=0 narrow=1.9311 mblur=0.8628 quality=65", false},
		{"sym=code128 seed=2 class=mixed module=2.3246 angle=316.7797 blur=0.2289 contrast=40.9130 paper=75.6491 persp=1 motion=1 light=1 jpeg=0 noise=8.0320 clutter=0 narrow=1.727 mblur=0.6549 quality=0", true},
		{"sym=dm seed=3 class=small module=1.2 angle=10 blur=0.1 contrast=80 paper=80 persp=0 motion=0 light=0 jpeg=0 noise=2 clutter=0", false},
	} {
		p, err := parseGen3Params(c.info)
		if err != nil {
			t.Fatal(err)
		}
		if p.inEnvelope() != c.in {
			t.Errorf("%s: in the envelope %v, want %v", p, p.inEnvelope(), c.in)
		}
	}
	if _, err := parseGen3Params("seed=1 angle=3"); err == nil {
		t.Error("a line without module= parsed")
	}
}
