package barcode

import (
	"slices"
	"testing"
)

// TestGrowMatrix grows a component by the cells beside it that reach half its median
// energy, one ring only, whatever their coherence.
func TestGrowMatrix(t *testing.T) {
	const cw, ch = 6, 5
	cells := make([]cellStat, cw*ch)
	for i := range cells {
		cells[i].e = 10 // paper
	}
	comp := []int{2*cw + 2, 2*cw + 3} // two cells of a symbol's core
	for _, i := range comp {
		cells[i].e = 100
	}
	cells[2*cw+1].e, cells[2*cw+1].coh = 60, 0.95 // a coherent border cell: joins
	cells[1*cw+2].e = 49                          // under half the median: stays out
	cells[3*cw+3].e = 50                          // at half: joins
	cells[2*cw+0].e = 90                          // two cells out: stays out
	got := growMatrix(cells, comp, cw, ch)
	slices.Sort(got)
	want := []int{2*cw + 1, 2*cw + 2, 2*cw + 3, 3*cw + 3}
	if !slices.Equal(got, want) {
		t.Errorf("grown %v, want %v", got, want)
	}
}

// TestFaintSymbolGrown reads faint DataMatrix symbols with large modules that the locator
// finds only as their core or in pieces (the border cells under the floors, the solid L's
// cells coherent): no candidate's own crop reads, its grown region's does, and Decode
// reads the frame.
func TestFaintSymbolGrown(t *testing.T) {
	if testing.Short() {
		t.Skip("camera frames skipped in -short mode")
	}
	needZint(t)
	for _, i := range []int{32478, 32577, 29607} {
		cf, text, err := camFrameAt(DataMatrix, i)
		if err != nil {
			t.Fatal(err)
		}
		g := toGray(cf.img)
		own, grown := false, false
		for _, r := range locate(&g) {
			if r.linear {
				continue
			}
			d := NewDecoder(Options{Formats: AllFormats})
			var cc matrixCrops
			if res, ok := d.decodeMatrix(&g, r, laterPass, &cc); ok && res.Text == text {
				own = true
			}
			if r.grown == nil {
				continue
			}
			d = NewDecoder(Options{Formats: AllFormats})
			cc = matrixCrops{}
			if res, ok := d.decodeMatrix(&g, *r.grown, laterPass, &cc); ok && res.Text == text {
				grown = true
			}
		}
		if own || !grown {
			t.Errorf("frame %d: a candidate's own crop reads: %v, a grown region reads: %v; want false, true", i, own, grown)
		}
		res, err := NewDecoder(Options{Formats: AllFormats}).Decode(cf.img)
		if err != nil || res.Text != text || res.Format != DataMatrix {
			t.Errorf("frame %d (%s): got %+v, %v; want DataMatrix %q", i, cf.p.Class, res, err, text)
		}
	}
}
