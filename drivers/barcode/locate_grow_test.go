package barcode

import (
	"slices"
	"testing"
)

// TestGrowMatrix grows a component through cell edges by the cells that reach half its
// median energy, whatever their coherence, one ring out.
func TestGrowMatrix(t *testing.T) {
	const cw, ch = 6, 5
	cells := make([]cellStat, cw*ch)
	for i := range cells {
		cells[i].e = 10 // paper
	}
	at := func(x, y int) int { return y*cw + x }
	comp := []int{at(2, 2), at(3, 2)} // two cells of a symbol's core
	for _, i := range comp {
		cells[i].e = 100
	}
	cells[at(1, 2)].e, cells[at(1, 2)].coh = 60, 0.95 // a coherent border cell: joins
	cells[at(2, 1)].e = 49                            // under half the median: stays out
	cells[at(3, 3)].e = 50                            // at half: joins
	cells[at(0, 2)].e = 90                            // two cells out: stays out
	got := growMatrix(cells, comp, cw, ch)
	slices.Sort(got)
	want := []int{at(1, 2), at(2, 2), at(3, 2), at(3, 3)}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("grown %v, want %v", got, want)
	}
}

// TestFaintSymbolGrown reads faint symbols with large modules that the locator finds only as
// their core or in pieces (the border cells under the floors, a DataMatrix symbol's solid
// L's cells coherent, a QR symbol's cluster over the lower floor taken for the same
// candidate): no candidate's own crop reads, one of its grown regions does, and Decode
// reads the frame.
func TestFaintSymbolGrown(t *testing.T) {
	cases := []camCase{{DataMatrix, 32478}, {DataMatrix, 32577}, {DataMatrix, 29607}, {QRCode, 24668}}
	eachCamFrame(t, cases, func(c camCase, cf camFrame, text string) {
		g := toGray(cf.img)
		own, grown := false, false
		for _, r := range locate(&g) {
			if r.linear {
				continue
			}
			d := NewDecoder(Options{Formats: AllFormats})
			d.budget = matrixBudget
			var cc matrixCrops
			if res, ok := d.decodeMatrix(&g, r, laterPass, &cc); ok && res.Text == text {
				own = true
			}
			for _, q := range r.grown {
				d = NewDecoder(Options{Formats: AllFormats})
				d.budget = matrixBudget
				cc = matrixCrops{}
				if res, ok := d.decodeMatrix(&g, q, laterPass, &cc); ok && res.Text == text {
					grown = true
				}
			}
		}
		if own || !grown {
			t.Errorf("frame %d: a candidate's own crop reads: %v, a grown region reads: %v; want false, true", c.i, own, grown)
		}
		wantDecoded(t, c, cf, text)
	})
}

// TestFaintSymbolHalved reads faint DataMatrix symbols whose cells on the frame stay under
// the floors or join clutter: nothing reads on the frame's own candidates, the halved
// level's faint candidates read, and Decode reads the frame.
func TestFaintSymbolHalved(t *testing.T) {
	eachCamFrame(t, []camCase{{DataMatrix, 21357}, {DataMatrix, 27308}}, func(c camCase, cf camFrame, text string) {
		i := c.i
		g := toGray(cf.img)
		pyr := newPyramid(&g)
		d := NewDecoder(Options{Formats: AllFormats})
		d.budget, d.partsBudget = matrixBudget, partsBudget
		var got []Result
		emit := func(r Result) bool { got = append(got, r); return true }
		if found, _ := d.scanLevel(pyr, 0, emit); found {
			t.Errorf("frame %d: read on the frame's own candidates: %+v", i, got)
			return
		}
		if !d.scanHalf(pyr, emit) || len(got) != 1 || got[0].Text != text {
			t.Errorf("frame %d: the halved level's candidates read %+v, want %q", i, got, text)
		}
		wantDecoded(t, c, cf, text)
	})
}
