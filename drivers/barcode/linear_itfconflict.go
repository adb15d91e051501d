package barcode

import "math"

// ITF has no check character: two bands that read the same bars as two texts say that at
// least one of them misread, and then neither is trusted. Within one reading of a region
// the votes refuse them (bandVotes.add); across readings (the region narrowed, swept, read
// along its axis, turned, over its whole height), passes and candidates — a code under
// strong noise is often located as two pieces, each a candidate of its own — each band's
// ITF read is kept with the place of its symbol on the frame, and a text read where
// another was read does not count. The third generator's tuning frame of ITF `mixed` seed 0
// (1.86-px narrow bars, 25 %, noise ×10, perspective and motion blur) read 95276787194944
// for 95276787193544 on three bands of one piece of the code in the smoothed pass, after
// the other piece had read both texts (TestITFReadsOnTheSameBars). Two codes apart, side by
// side or end to end, keep their reads.

// itfBandRead is one band's ITF read: its text, its symbol's ends on the frame (the first and
// last bar of the band's row) and the bars' half height (the region's halfV).
type itfBandRead struct {
	text           string
	x0, y0, x1, y1 float64
	halfV          float64
}

// maxITFReads bounds the reads a frame keeps (a frame of clutter reads no ITF; a code
// under strong noise a few dozen bands).
const maxITFReads = 256

// itfBandReadOf places a band's read of text: row is its bars (trimmed to the symbol), n
// samples scanned from r's centre less half along (ax, ay), off along (bx, by), k samples a
// pixel. A row not in the profile's samples (nil: the edge reader's, rebuilt from the
// edges' widths) places the read over the whole scan.
func itfBandReadOf(text string, row []bool, n int, r region, ax, ay, bx, by, half, off, k float64) itfBandRead {
	first, last := 0, n-1
	if len(row) == n {
		first, last = -1, -1
		for i, dark := range row {
			if dark {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		first = max(first, 0)
	}
	sx, sy := r.cx-half*ax+off*bx, r.cy-half*ay+off*by
	t0, t1 := float64(first)/k, float64(last+1)/k
	return itfBandRead{text: text, x0: sx + t0*ax, y0: sy + t0*ay, x1: sx + t1*ax, y1: sy + t1*ay, halfV: r.halfV}
}

// itfConflict notes read and reports whether another ITF text was read on the same bars in
// this frame (sameBars).
func (d *Decoder) itfConflict(read itfBandRead) bool {
	other := false
	for _, o := range d.itfReads {
		if o.text != read.text && sameBars(o, read) {
			other = true
			break
		}
	}
	if len(d.itfReads) < maxITFReads {
		d.itfReads = append(d.itfReads, read)
	}
	return other
}

// sameBars reports whether two reads lay on the same bars: their lines within 15° of each
// other, each one's middle within the bars' height of the other's line, and their symbols
// overlapping along it by half the shorter.
func sameBars(a, b itfBandRead) bool {
	ax, ay := a.x1-a.x0, a.y1-a.y0
	bx, by := b.x1-b.x0, b.y1-b.y0
	la, lb := math.Hypot(ax, ay), math.Hypot(bx, by)
	if la < 1 || lb < 1 {
		return false
	}
	ax, ay = ax/la, ay/la
	if math.Abs(ax*bx+ay*by)/lb < math.Cos(15*math.Pi/180) {
		return false
	}
	// b's ends along a's line (a's x0 at 0) and b's middle across it.
	s0 := (b.x0-a.x0)*ax + (b.y0-a.y0)*ay
	s1 := (b.x1-a.x0)*ax + (b.y1-a.y0)*ay
	mx, my := (b.x0+b.x1)/2-a.x0, (b.y0+b.y1)/2-a.y0
	if math.Abs(-mx*ay+my*ax) > max(a.halfV, b.halfV)+2 {
		return false
	}
	overlap := min(la, max(s0, s1)) - max(0, min(s0, s1))
	return overlap >= 0.5*min(la, lb)
}
