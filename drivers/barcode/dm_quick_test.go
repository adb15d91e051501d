package barcode

import (
	"path/filepath"
	"testing"

	"github.com/jonboulle/clockwork"
)

// TestDMQuickLookUnderBudget: under a time budget (a camera frame) our DataMatrix reader
// gives a small candidate only its quick look in the plain pass (at most dmQuickOutlines
// outlines refined, no soft decisions or polished corners) and goes on after the fitted pass
// (dmRestPass), so that on issue 34's corner frame (1.5-px modules, σ 0.8, 25 %: only the
// fitted pass reads it) the fitted pass is not kept waiting by the whole search (10–27 ms of
// CPU before: the frame read in 10–60 % of the Full-budget decodes). Without a budget the
// plain pass searches whole, as before, and keeps nothing for later. The budget here never
// runs out (a frozen clock): what is checked is the order of the work, not its time
// (BenchmarkMatrixCornerFrame measures that).
func TestDMQuickLookUnderBudget(t *testing.T) {
	skipUnderRace(t)
	img, want := loadCrop(t, filepath.Join("testdata", "gen3-corner", "dm-1.5-500004_a30_b0.8_c25.png"))
	g := toGray(img)
	var r region
	found := false
	for _, c := range locate(&g) {
		if !c.linear {
			r, found = c, true
			break
		}
	}
	if !found || !fitSmall(r) {
		t.Fatalf("the corner frame has no small matrix candidate")
	}
	for _, budget := range []bool{false, true} {
		opt := Options{Formats: AllFormats, ITFLengths: []int{14}}
		if budget {
			opt.Budget, opt.Clock = DefaultCadence().Full, clockwork.NewFakeClock()
		}
		d := NewDecoder(opt)
		if budget {
			d.deadline = d.clock.Now().Add(opt.Budget)
		}
		var cc matrixCrops
		if res, ok := d.decodeMatrix(&g, r, plainPass, &cc); ok {
			t.Fatalf("budget %v: the plain pass read %q: the frame no longer needs the fitted pass", budget, res.Text)
		}
		if !budget {
			if cc.dm != nil {
				t.Errorf("without a budget the plain pass kept a search for later")
			}
			continue
		}
		st := cc.dm
		if st == nil {
			t.Fatalf("under a budget the plain pass kept no search for after the fitted pass")
		}
		if st.det.made > dmQuickOutlines {
			t.Errorf("under a budget the plain pass refined %d outlines, want at most %d", st.det.made, dmQuickOutlines)
		}
		if _, ok := d.decodeMatrix(&g, r, dmRestPass, &cc); ok || cc.dm != nil || st.det.made <= dmQuickOutlines {
			t.Errorf("the rest pass: read %v, search kept %v, %d outlines refined in all", ok, cc.dm != nil, st.det.made)
		}
		// The whole frame, under the budget: plain, equalised, then the fitted pass reads it.
		d = NewDecoder(opt)
		if res, err := d.Decode(img); err != nil || res.Text != want {
			t.Errorf("under a budget: %q, %v; want %q", res.Text, err, want)
		}
	}
}
