package barcode

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"
)

func TestQuickRates(t *testing.T) {
	if os.Getenv("QUICK") == "" {
		t.Skip()
	}
	for _, f := range []Format{Code128, ITF, QRCode, DataMatrix} {
		rng := rand.New(rand.NewPCG(7, uint64(f)))
		d := NewDecoder(Options{Formats: f, ITFLengths: []int{14}})
		ok, loc := 0, 0
		var dt time.Duration
		n := 100
		for i := range n {
			text := codeText(rng, f)
			img, p := makeFrame(rng, f, text)
			t0 := time.Now()
			r, err := d.Decode(img)
			dt += time.Since(t0)
			if err == nil && r.Text == text {
				ok++
				if r.Located {
					loc++
				}
			} else if os.Getenv("DUMP") != "" {
				fh, _ := os.Create("/tmp/fail_" + f.String() + "_" + string(rune('a'+i%26)) + ".png")
				WritePNG(fh, img)
				fh.Close()
				t.Logf("%v fail %d: %+v err=%v got=%q", f, i, p, err, r.Text)
			}
		}
		t.Logf("%v: %d/%d (located %d) avg %v", f, ok, n, loc, dt/time.Duration(n))
	}
}

func TestQuickZbar(t *testing.T) {
	if os.Getenv("QUICK") == "" {
		t.Skip()
	}
	dir := t.TempDir()
	for _, f := range []Format{Code128, ITF, QRCode} {
		rng := rand.New(rand.NewPCG(7, uint64(f)))
		var files, texts []string
		for i := range 100 {
			text := codeText(rng, f)
			img, _ := makeFrame(rng, f, text)
			p := fmt.Sprintf("%s/%v-%03d.pgm", dir, f, i)
			writePGM(p, img)
			files = append(files, p)
			texts = append(texts, text)
		}
		t0 := time.Now()
		r := zbarScan(t, f, files)
		ok := 0
		for i, p := range files {
			if got := r[p]; len(got) > 0 && got[0] == texts[i] {
				ok++
			}
		}
		t.Logf("zbar %v: %d/100 in %v", f, ok, time.Since(t0))
	}
}
