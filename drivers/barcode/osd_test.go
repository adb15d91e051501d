package barcode

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// TestOSDSearchBeyondChase corrects a QR block (version 2-M: 44 codewords, 16 check) with
// 16 bits wrong in 13 codewords, every wrong bit among the block's 100 least sure (the
// picture of a fitted symbol under strong noise: tuning frames keep 14–19 wrong bits in
// 11–15 codewords, nearly all among the 128 least sure), with right bits less sure than
// most of them: beyond errors alone (8), the soft correction and Chase's search, within
// ordered statistics. Words at random, with the same confidences, are refused.
func TestOSDSearchBeyondChase(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 90))
	const n, nsym = 44, 16
	never := func() bool { return false }
	for trial := range 10 {
		want := qrEncodeBlock(rng, n, nsym)
		cw := append([]byte(nil), want...)
		sc := make([]softCodeword, n)
		for p := range sc {
			for b := range 8 {
				sc[p].conf[b] = float32(0.2 + 0.3*rng.Float64())
			}
		}
		// 100 unsure bits (confidence 0–0.2), 16 of them wrong in 13 codewords.
		unsure := rng.Perm(8 * n)[:100]
		for _, i := range unsure {
			sc[i/8].conf[i%8] = float32(0.2 * rng.Float64())
		}
		wrong, hit := 0, map[int]bool{}
		for _, i := range unsure {
			if wrong == 16 || len(hit) == 13 && !hit[i/8] {
				continue
			}
			cw[i/8] ^= 0x80 >> (i % 8)
			hit[i/8] = true
			wrong++
		}
		for p := range sc {
			sc[p].rel = 1
			for b, c := range sc[p].conf {
				if float64(c) < sc[p].rel {
					sc[p].rel, sc[p].weak = float64(c), 0x80>>b
				}
				sc[p].trust[b] = float32(bitTrust(float64(c)))
			}
		}
		if len(hit) != 13 || wrong != 16 {
			t.Fatalf("trial %d: %d bits wrong in %d codewords", trial, wrong, len(hit))
		}
		if _, ok := softCorrect(qrField, append([]byte(nil), cw...), nsym, sc, 8*rsSlack); ok {
			t.Fatalf("trial %d: the soft correction alone corrected the block", trial)
		}
		if _, ok := chaseSearch(qrField, append([]byte(nil), cw...), nsym, sc, fitChaseTrials, never); ok {
			t.Fatalf("trial %d: Chase's search corrected the block", trial)
		}
		got, ok := osdSearch(qrField, cw, nsym, sc)
		if !ok || string(got) != string(want) {
			t.Fatalf("trial %d: ordered statistics corrected %v, to the codeword %v", trial, ok, string(got) == string(want))
		}
		for range 200 {
			random := make([]byte, n)
			for p := range random {
				random[p] = byte(rng.IntN(256))
			}
			if got, ok := osdSearch(qrField, random, nsym, sc); ok {
				t.Fatalf("trial %d: a word at random corrected to %x", trial, got)
			}
		}
	}
}

// TestOSDMaxDiff checks the acceptance bound: a block of r parity-check bits at random
// (P(Bin(r, ½) ≤ d) per candidate) passes with chance under osdFalse over the candidates,
// fewer differences allowed the more candidates are tried.
func TestOSDMaxDiff(t *testing.T) {
	for _, c := range []struct{ r, trials, want int }{
		{128, 1, 29}, {128, 1 + osdFlip + osdFlip*(osdFlip-1)/2, 22}, {112, 1177, 18}, {80, 1177, 8},
	} {
		if got := osdMaxDiff(c.r, c.trials); got != c.want {
			t.Errorf("osdMaxDiff(%d, %d) = %d, want %d", c.r, c.trials, got, c.want)
		}
	}
}

// TestOSDReadsFittedFrames reads two 160-px crops of tuning frames of QR drawn faint and
// noisy (frame.sh's GEN3_CONTRAST=25,40 GEN3_NOISE=7,10 GEN3_MODULE=1.5,2.2; the noise
// class's seed 90: 1.73 px, 32 %, noise ×9.3; the mixed class's seed 65: 1.80 px in
// perspective, 30 %, uneven light, noise ×7.3), both within the readable limit. The
// fitted pass's best fits keep 16–17 modules wrong, 11–13 codewords of 44: beyond the soft
// correction and Chase's search, and 14–15 bits from a codeword among the 128 least sure of
// the block, which ordered statistics read. Neither reads without them.
func TestOSDReadsFittedFrames(t *testing.T) {
	skipUnderRace(t)
	files, err := filepath.Glob(filepath.Join("testdata", "gen3-osd", "*.png"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no frames: %v", err)
	}
	readOnlyWith(t, files, "ordered statistics", func(d *Decoder) { d.noOSD = true })
}

// readOnlyWith asserts that each frame of files reads its text (loadCrop's) with every
// format, and, when off is not nil, reads nothing with off applied to the decoder (what
// names the part it switched off).
func readOnlyWith(t *testing.T, files []string, what string, off func(*Decoder)) {
	t.Helper()
	for _, fn := range files {
		img, want := loadCrop(t, fn)
		name := filepath.Base(fn)
		if off != nil {
			without := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}})
			off(without)
			if r, err := without.Decode(img); err == nil {
				t.Errorf("%s: read %q without %s", name, r.Text, what)
			}
		}
		r, err := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}}).Decode(img)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if r.Text != want {
			t.Errorf("%s: read %q, want %q", name, r.Text, want)
		}
	}
}

// BenchmarkOSDSearch times ordered statistics on a QR version 2-M block at random (every
// candidate tried, none taken): the cost a fitted read pays when it does not read.
func BenchmarkOSDSearch(b *testing.B) {
	rng := rand.New(rand.NewPCG(34, 91))
	const n, nsym = 44, 16
	sc := make([]softCodeword, n)
	for p := range sc {
		for k := range 8 {
			sc[p].conf[k] = float32(rng.Float64())
		}
	}
	random := make([]byte, n)
	for p := range random {
		random[p] = byte(rng.IntN(256))
	}
	for b.Loop() {
		osdSearch(qrField, random, nsym, sc)
	}
}
