//go:build !race

package barcode

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // the generator's JPEG class
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// The third generator (issue 34, scripts/gen3/frame.sh): zint draws the code, ImageMagick
// distorts it. This file only runs the script and reads what it wrote; it shares no code
// with the decoder or the other two generators. Its frames are cached under out/gen3/
// (gitignored), so a second run only decodes.
//
// BARCODE_GEN3=1 measures the classes (tuning and held-out halves, ours against gozxing and
// zbarimg); BARCODE_SWEEP=1 the grid (gen3_sweep_test.go). Neither runs in CI; the small
// checked-in held-out sample (testdata/gen3/, TestGen3Sample) does.

// gen3Classes are the script's classes other than the sweep.
var gen3Classes = []string{"plain", "perspective", "defocus", "motion", "light", "jpeg", "noise", "clutter", "small", "mixed"}

// gen3HeldOut is where the held-out seeds start: seeds below it are for tuning, seeds from it
// on are never looked at while tuning (reported apart).
const gen3HeldOut = 1_000_000

func gen3Sym(f Format) string {
	return map[Format]string{Code128: "code128", ITF: "itf", QRCode: "qr", DataMatrix: "dm"}[f]
}

// repoRoot is the module root (drivers/barcode is two levels down).
func repoRoot() string {
	wd, _ := os.Getwd()
	return filepath.Join(wd, "..", "..")
}

// gen3Cache is the directory of cached frames.
func gen3Cache() string {
	if d := os.Getenv("BARCODE_GEN3_CACHE"); d != "" {
		return d
	}
	return filepath.Join(repoRoot(), "out", "gen3")
}

// needGen3 skips unless the generator's tools are installed.
func needGen3(t testing.TB) {
	t.Helper()
	needTool(t, "zint", "zint")
	out, err := exec.Command("convert", "-version").Output()
	if err != nil || !bytes.Contains(out, []byte("ImageMagick")) {
		t.Skip("ImageMagick not installed (Debian package imagemagick): the third generator cannot run")
	}
}

// gen3Frame returns the frame of (f, seed, class) from the cache, running the script when
// it is not there yet.
func gen3Frame(f Format, seed int, class string) (sourceFrame, error) {
	base := filepath.Join(gen3Cache(), gen3Sym(f), fmt.Sprintf("%s-%d", class, seed))
	if err := gen3Run(f, base, seed, class); err != nil {
		return sourceFrame{}, err
	}
	for _, e := range []string{"png", "jpg"} {
		if _, err := os.Stat(base + "." + e); err == nil {
			return gen3Load(base+".txt", base+"."+e, e, class)
		}
	}
	return sourceFrame{}, fmt.Errorf("gen3 %s: no frame written", base)
}

// gen3Run runs the script for base unless base.txt exists (the script writes it last).
func gen3Run(f Format, base string, seed int, class string, grid ...string) error {
	if _, err := os.Stat(base + ".txt"); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return err
	}
	args := append([]string{"bash", filepath.Join(repoRoot(), "scripts", "gen3", "frame.sh"),
		base, gen3Sym(f), fmt.Sprint(seed), class}, grid...)
	if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
		return fmt.Errorf("gen3 %s: %v: %s", base, err, out)
	}
	return nil
}

// gen3Load reads a frame and its text file (the text, then the parameters).
func gen3Load(txt, file, ext, class string) (sourceFrame, error) {
	meta, err := os.ReadFile(txt)
	if err != nil {
		return sourceFrame{}, err
	}
	lines := strings.SplitN(strings.TrimSpace(string(meta)), "\n", 2)
	data, err := os.ReadFile(file)
	if err != nil {
		return sourceFrame{}, err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return sourceFrame{}, fmt.Errorf("gen3 %s: %w", file, err)
	}
	info := file
	if len(lines) > 1 {
		info = lines[1]
	}
	return sourceFrame{img: img, text: lines[0], class: class, file: data, ext: ext, info: info}, nil
}

// gen3Source adapts the generator's classes to measureSet: index i is class i%len(classes),
// seed base+i/len(classes).
func gen3Source(f Format, base int) func(int) (sourceFrame, error) {
	return func(i int) (sourceFrame, error) {
		return gen3Frame(f, base+i/len(gen3Classes), gen3Classes[i%len(gen3Classes)])
	}
}

// gen3Prefetch generates the frames of idx on both cores before anything is timed.
func gen3Prefetch(t testing.TB, n int, src func(int) (sourceFrame, error)) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, 1)
	work := make(chan int)
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if _, err := src(i); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
}

// TestGen3Classes measures the third generator's classes, tuning and held-out halves apart,
// ours against gozxing alone and zbarimg. BARCODE_GEN3=N runs N frames per class and half
// (1: 20).
func TestGen3Classes(t *testing.T) {
	n := envInt(t, "BARCODE_GEN3")
	if n == 0 {
		t.Skip("BARCODE_GEN3 unset: the third generator's classes are measured on request")
	}
	if n == 1 {
		n = 20
	}
	needGen3(t)
	for _, f := range formatsUnderTest() {
		for _, half := range []struct {
			name string
			base int
		}{{"gen3 tuning", 0}, {"gen3 held-out", gen3HeldOut}} {
			src := gen3Source(f, half.base)
			total := n * len(gen3Classes)
			gen3Prefetch(t, total, src)
			out := measureSet(t, f, indices(0, total), src, true)
			tl := summarize(t, half.name, f, out, true)
			if tl.wrong > 0 {
				t.Errorf("%s %v: %d wrong reads", half.name, f, tl.wrong)
			}
		}
	}
}

// envInt reads an integer environment variable (0 when unset).
func envInt(t testing.TB, name string) int {
	v := os.Getenv(name)
	if v == "" {
		return 0
	}
	var n int
	if _, err := fmt.Sscan(v, &n); err != nil {
		t.Fatalf("%s=%q: not an integer", name, v)
	}
	return n
}
