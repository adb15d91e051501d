package barcode

import "time"

// The time budget (Options.Budget): the decoder looks at the clock between its steps, and
// inside the long ones (each band of a linear candidate, each outline of our DataMatrix
// reader, every budgetRows rows of the fallback, between gozxing's readers), so that a frame
// ends within a step of its deadline. A step is at most a few ms, except one call of
// gozxing's 2D readers on a large crop (up to 640×640 pixels: tens of ms on a busy one),
// which cannot be stopped once started: such a call starts only when the time left is
// enough for it at the rate such calls have run at of late (affords).

// expired reports whether the frame's time budget is spent (and remembers it). Without a
// budget it does not read the clock.
func (d *Decoder) expired() bool {
	if d.expiredOnce {
		return true
	}
	if d.deadline.IsZero() {
		return false
	}
	d.now = d.clock.Now()
	if d.now.Before(d.deadline) {
		return false
	}
	d.expiredOnce = true
	return true
}

// affords reports whether a read of gozxing's 2D readers on px crop pixels may start: the
// budget is not spent and the time left covers px at the rate those reads have taken
// (perPixel). A read it refuses marks the frame as given up (ErrBudget when nothing read)
// but not expired: smaller steps after it still run.
func (d *Decoder) affords(px int) bool {
	if d.expired() {
		return false
	}
	if d.deadline.IsZero() || d.perPixel*float64(px) <= float64(d.deadline.Sub(d.now)) {
		return true
	}
	d.gaveUp = true
	return false
}

// learn notes how long a read of gozxing's 2D readers on px crop pixels took since start
// (a reading of the clock by expired or affords just before it). perPixel keeps the
// largest rate, decaying by perPixelDecay a read so that one pathological crop does not
// hold it up for long; it is kept across frames (the machine's speed).
func (d *Decoder) learn(start time.Time, px int) {
	if d.deadline.IsZero() || d.expiredOnce || px == 0 {
		return
	}
	rate := float64(d.clock.Now().Sub(start)) / float64(px)
	d.perPixel = max(rate, perPixelDecay*d.perPixel)
}

// perPixelDecay is how much of the largest rate of gozxing's 2D reads (learn) is kept at
// each read.
const perPixelDecay = 0.97
