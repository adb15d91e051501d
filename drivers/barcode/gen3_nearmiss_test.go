//go:build !race

package barcode

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// gen3NearMissKinds is the number of near-miss kinds frame.sh draws for each symbology
// (scripts/gen3/nearmiss.sh): the kind of seed s is kind s mod that number.
var gen3NearMissKinds = map[Format]int{Code128: 7, ITF: 7, QRCode: 4, DataMatrix: 4}

// gen3NearMissFresh is where BARCODE_GEN3_NEARMISS's draw starts: seeds apart from the small
// default draw (0–9), still tuning seeds (under gen3HeldOut).
const gen3NearMissFresh = 10_000

// nearMissTally counts one symbology and kind's frames: read nothing, read an allowed text
// (the symbol's own), and the wrong reads (logged).
type nearMissTally struct{ frames, none, own, wrong int }

// TestGen3NearMissesReadNoWrongText draws the third generator's near misses (class nearmiss:
// codes cut, covered, cut by the frame's edge, of another length, side by side, smudged,
// blotted or wiped, and look-alikes without a code: random stripes framed by a real start and
// stop, random module grids with real finders, checkerboards) and asserts that none reads
// any text but what its text file allows (the symbol's own, or nothing), with the terminal's
// options and with every format enabled (ITF held to 14 digits: ITF of any length reads
// fragments of other bars, docs/codes.md, Known limits). By default one frame of each kind
// (seeds from 0), read with one decoder (the terminal's; DataMatrix, not among its formats,
// with every format) to keep the package's test short; BARCODE_GEN3_NEARMISS=N draws N a
// kind from seed 10,000 (BARCODE_GEN3_FROM=K: K on), a fresh draw, read with both. Skipped
// without zint and ImageMagick, and with -short.
func TestGen3NearMissesReadNoWrongText(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the near misses of the third generator are drawn by zint and ImageMagick on the host")
	}
	needGen3(t)
	per, base := 0, 0
	if n := envInt(t, "BARCODE_GEN3_NEARMISS"); n > 0 {
		per, base = n, gen3NearMissFresh+envInt(t, "BARCODE_GEN3_FROM")
	}
	for _, f := range formatsUnderTest() {
		n := max(1, per) * gen3NearMissKinds[f]
		gen3Prefetch(t, (n+gen3Batch-1)/gen3Batch, func(i int) (sourceFrame, error) {
			return gen3Frame(f, base+i*gen3Batch, "nearmiss")
		})
		tally := gen3DecodeNearMisses(t, f, base, n, per == 0)
		kinds := make([]string, 0, len(tally))
		for k := range tally {
			kinds = append(kinds, k)
		}
		slices.Sort(kinds)
		for _, k := range kinds {
			c := tally[k]
			t.Logf("%v %-8s %4d frames: %4d read nothing, %4d their own text, %d wrong", f, k, c.frames, c.none, c.own, c.wrong)
		}
	}
}

// gen3DecodeNearMisses decodes the near misses of seeds base…base+n−1 on every core (a
// decoder pair per core: the terminal's options and every format), reporting each wrong read,
// and returns the tally per kind. one decodes each with one decoder only: the terminal's, or
// for DataMatrix (not among the terminal's formats) every format's.
func gen3DecodeNearMisses(t *testing.T, f Format, base, n int, one bool) map[string]*nearMissTally {
	t.Helper()
	var mu sync.Mutex
	tally := map[string]*nearMissTally{}
	work := make(chan int)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			term := NewDecoder(DefaultOptions())
			all := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}, Code128Digits: []int{12}})
			for seed := range work {
				sf, err := gen3Frame(f, seed, "nearmiss")
				if err != nil {
					t.Error(err)
					continue
				}
				allowed, kind := gen3NearMissAllowed(sf.info, sf.text)
				type named struct {
					name string
					dec  *Decoder
				}
				decs := []named{{"terminal", term}, {"every format", all}}
				if one && f == DataMatrix {
					decs = decs[1:]
				} else if one {
					decs = decs[:1]
				}
				var own, wrong bool
				for _, d := range decs {
					r, err := d.dec.Decode(sf.img)
					switch {
					case err != nil:
					case r.Format == f && slices.Contains(allowed, r.Text):
						own = true
					default:
						wrong = true
						t.Errorf("%v nearmiss-%d (%s, %s): read %s %q; may read %q: %s", f, seed, kind, d.name, r.Symbology, r.Text, allowed, sf.info)
					}
				}
				mu.Lock()
				c := tally[kind]
				if c == nil {
					c = &nearMissTally{}
					tally[kind] = c
				}
				c.frames++
				switch {
				case wrong:
					c.wrong++
				case own:
					c.own++
				default:
					c.none++
				}
				mu.Unlock()
			}
		}()
	}
	for i := range n {
		work <- base + i
	}
	close(work)
	wg.Wait()
	return tally
}

// gen3NearMissAllowed returns the texts a near miss may read (its text file's first line,
// space-separated; "-" for none) and its kind (kind= among the parameters).
func gen3NearMissAllowed(info, first string) (allowed []string, kind string) {
	if first != "-" {
		allowed = strings.Fields(first)
	}
	for _, p := range strings.Fields(info) {
		if k, ok := strings.CutPrefix(p, "kind="); ok {
			kind = k
		}
	}
	if kind == "" {
		kind = "unknown"
	}
	return allowed, kind
}
