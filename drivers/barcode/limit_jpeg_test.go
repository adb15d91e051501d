//go:build !race

package barcode

import (
	"fmt"
	"image"
	"image/color"
	_ "image/png" // the generator's stages
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// JPEG's error at the matched filter (issue 34's readable limit under JPEG). frame.sh writes
// JPEG's error at the symbol as jpegrms= (the RMS difference between the frame before JPEG
// and the JPEG over the symbol's modules). The bound needs its power at a module's matched
// filter: white noise of that RMS would put jpegrms²·‖h‖² there, but JPEG's error is not
// white (it takes out high frequencies, and with them part of the sensor noise). With
// GEN3_STAGES=DIR frame.sh keeps a JPEG frame's stages (the frame before the sensor noise,
// before JPEG, and the symbol's mask); TestJPEGErrorModel (BARCODE_LIMIT_JPEG=DIR, the
// frames from BARCODE_GEN3_CACHE) measures on them how much of that power reaches the filter.

// jpegErrStat is one frame's measure: over the symbol's modules, the RMS of JPEG's error e
// (post − pre, as jpegrms=), the sensor noise n (pre − clean) and, through the footprint h of
// a module at the frame's scale, blur and angle placed at every pixel of the symbol, the
// filter's output variances per ‖h‖² (white noise of σ gives σ²): of e, of n, and of the
// whole error after JPEG t = post − clean (the noise, JPEG's error and its cross term).
type jpegErrStat struct {
	rms, sn    float64 // grey levels
	ve, vn, vt float64 // levels² per ‖h‖²
	kurt       float64 // the kurtosis of h⋆t (3: Gaussian)
}

// kE is the share of e's power that reaches the filter compared with white noise of its RMS.
func (s jpegErrStat) kE() float64 { return s.ve / (s.rms * s.rms) }

// kT is JPEG's net addition at the filter over the sensor noise's, per jpegrms²: the model's
// factor (σ² = σn² + kT·jpegrms²).
func (s jpegErrStat) kT() float64 { return (s.vt - s.vn) / (s.rms * s.rms) }

// jpegGrey returns an image's grey levels (0–255, 16-bit precise) row by row.
func jpegGrey(t *testing.T, file string) ([]float64, int, int) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	b := img.Bounds()
	out := make([]float64, 0, b.Dx()*b.Dy())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out = append(out, float64(color.Gray16Model.Convert(img.At(x, y)).(color.Gray16).Y)/257)
		}
	}
	return out, b.Dx(), b.Dy()
}

// measureJPEGErr measures a frame's stages (stage: DIR/CLASS-SEED, post: its JPEG) with the
// footprint of a module of side m px, blur σ, at angle deg.
func measureJPEGErr(t *testing.T, rng *rand.Rand, stage, post string, m, blur, deg float64) jpegErrStat {
	clean, w, h := jpegGrey(t, stage+"-clean.png")
	pre, _, _ := jpegGrey(t, stage+"-pre.png")
	jp, _, _ := jpegGrey(t, post)
	mask, _, _ := jpegGrey(t, stage+"-mask.png")
	var st jpegErrStat
	var wsum, e2, n2 float64
	for i, mw := range mask {
		mw /= 255
		wsum += mw
		e2 += mw * (jp[i] - pre[i]) * (jp[i] - pre[i])
		n2 += mw * (pre[i] - clean[i]) * (pre[i] - clean[i])
	}
	st.rms, st.sn = math.Sqrt(e2/wsum), math.Sqrt(n2/wsum)
	cone, sum := footprintCone()
	reach := footprintReach(m, blur)
	side := 2*reach + 2
	a := deg * math.Pi / 180
	var ks [][]float64 // at random sub-pixel phases
	for range 8 {
		ks = append(ks, footprint(cone, sum, m, blur, a, rng.Float64(), rng.Float64()))
	}
	var hn2 float64
	for _, k := range ks {
		for _, v := range k {
			hn2 += v * v / float64(len(ks))
		}
	}
	var acc [3]struct{ s, s2, s3, s4, n float64 }
	for y := reach; y < h-reach-1; y++ {
		for x := reach; x < w-reach-1; x++ {
			if mask[y*w+x] < 0.99*255 {
				continue
			}
			k := (x + 3*y) % len(ks)
			var f [3]float64
			for j := range side {
				row := (y+j-reach)*w + x - reach
				for i := range side {
					p := row + i
					hv := ks[k][j*side+i]
					f[0] += hv * (jp[p] - pre[p])
					f[1] += hv * (pre[p] - clean[p])
					f[2] += hv * (jp[p] - clean[p])
				}
			}
			for q := range f {
				acc[q].s += f[q]
				acc[q].s2 += f[q] * f[q]
				acc[q].s3 += f[q] * f[q] * f[q]
				acc[q].s4 += f[q] * f[q] * f[q] * f[q]
				acc[q].n++
			}
		}
	}
	v := func(q int) float64 {
		mean := acc[q].s / acc[q].n
		return (acc[q].s2/acc[q].n - mean*mean) / hn2
	}
	st.ve, st.vn, st.vt = v(0), v(1), v(2)
	// The kurtosis of the whole error at the filter (about its mean; a Gaussian's is 3).
	tt := acc[2]
	mu, e2, e3, e4 := tt.s/tt.n, tt.s2/tt.n, tt.s3/tt.n, tt.s4/tt.n
	m2 := e2 - mu*mu
	st.kurt = (e4 - 4*mu*e3 + 6*mu*mu*e2 - 3*mu*mu*mu*mu) / (m2 * m2)
	return st
}

// TestJPEGErrorModel (BARCODE_LIMIT_JPEG=DIR: GEN3_STAGES's directory, holding qr/ and dm/;
// the frames in BARCODE_GEN3_CACHE) logs, per JPEG frame with stages, JPEG's error at the
// symbol and at the matched filter, and the factors' spread by module, quality and noise.
func TestJPEGErrorModel(t *testing.T) {
	dir := os.Getenv("BARCODE_LIMIT_JPEG")
	if dir == "" {
		t.Skip("BARCODE_LIMIT_JPEG unset: JPEG's error model is measured on request")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	type row struct {
		p  gen3Params
		st jpegErrStat
		r  float64 // jpegrms= of the text file
	}
	var rows []row
	for _, sym := range []string{"qr", "dm"} {
		masks, _ := filepath.Glob(filepath.Join(dir, sym, "*-mask.png"))
		for _, mf := range masks {
			stage := strings.TrimSuffix(mf, "-mask.png")
			base := filepath.Join(gen3Cache(), sym, filepath.Base(stage))
			meta, err := os.ReadFile(base + ".txt")
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitN(strings.TrimSpace(string(meta)), "\n", 2)
			p, err := parseGen3Params(lines[1])
			if err != nil {
				t.Fatal(err)
			}
			st := measureJPEGErr(t, rng, stage, base+".jpg", p.narrow, p.sigma(), p.angle)
			rows = append(rows, row{p, st, p.jpegRMS})
			t.Logf("%s %s: jpegrms %.2f (measured %.2f), σn %.2f (model %.2f), at the filter: noise %.1f, JPEG %.1f (kE %.2f; frame.sh's jpegmf %.2f: %.2f), after JPEG %.1f (kT %.2f)",
				sym, p, p.jpegRMS, st.rms, st.sn, limitSensorSigma(p.noise), st.vn, st.ve, st.kE(), p.jpegMF, p.jpegMF*p.jpegMF/(p.jpegRMS*p.jpegRMS), st.vt, st.kT())
		}
	}
	if len(rows) == 0 {
		t.Fatalf("no stages under %s", dir)
	}
	// The spread of kE, kT, of the exact measure over frame.sh's (ve/jpegmf², and
	// (vt − vn)/jpegmf²: JPEG's net addition with its cross term with the noise), and of the
	// kurtosis of the whole error at the filter.
	quant := func(name string, keep func(row) bool) {
		var qs [5][]float64
		for _, r := range rows {
			if keep(r) {
				mf2 := r.p.jpegMF * r.p.jpegMF
				for i, v := range []float64{r.st.kE(), r.st.kT(), r.st.ve / mf2, (r.st.vt - r.st.vn) / mf2, r.st.kurt} {
					qs[i] = append(qs[i], v)
				}
			}
		}
		if len(qs[0]) == 0 {
			return
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%-28s %3d frames (10 %%, median, 90 %%):", name, len(qs[0]))
		for i, q := range qs {
			slices.Sort(q)
			at := func(f float64) float64 { return q[int(f*float64(len(q)-1))] }
			fmt.Fprintf(&b, " %s %.2f %.2f %.2f", []string{"kE", "kT", "ve/mf²", "net/mf²", "kurtosis"}[i], at(0.1), at(0.5), at(0.9))
		}
		t.Log(b.String())
	}
	quant("all", func(row) bool { return true })
	for _, b := range [][2]float64{{1, 1.5}, {1.5, 2}, {2, 2.5}, {2.5, 4}} {
		quant(fmt.Sprintf("narrow %.1f–%.1f px", b[0], b[1]), func(r row) bool { return r.p.narrow >= b[0] && r.p.narrow < b[1] })
	}
	for _, b := range [][2]int{{30, 45}, {45, 60}, {60, 71}} {
		quant(fmt.Sprintf("quality %d–%d", b[0], b[1]-1), func(r row) bool { return r.p.quality >= b[0] && r.p.quality < b[1] })
	}
	quant("noise at the base", func(r row) bool { return r.p.noise <= 2 })
	quant("noise ×4–7", func(r row) bool { return r.p.noise > 2 && r.p.noise < 7 })
	quant("noise ×7–10", func(r row) bool { return r.p.noise >= 7 })
	quant("contrast < 50 %", func(r row) bool { return r.p.contrast < 50 })
	quant("in the envelope, no persp", func(r row) bool { return r.p.inEnvelope() && !r.p.persp })
}
