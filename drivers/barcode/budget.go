package barcode

import "time"

// The time budget (Options.Budget): the decoder looks at the clock between its steps, and
// inside the long ones (each band of a linear candidate, each outline of our DataMatrix
// reader, every budgetRows rows of the fallback, between gozxing's readers), so that a frame
// ends within a step of its deadline. A step is at most a few ms, except one call of
// gozxing's 2D readers on a large crop (up to 640×640 pixels: tens of ms on a busy one),
// which cannot be stopped once started: such a call on a large crop starts only when the
// time left is enough for it at the rate such calls have run at of late (affords). A full
// least-squares fit of a grid (readFitted: up to 13 ms on a large window) starts likewise
// only when the time left covers it (leftFor, fitCost).

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

// affords reports whether a step of px pixels may start (a call of gozxing's 2D readers on
// a crop, our DataMatrix search): the budget is not spent and, for a large crop
// (predictPixels or more), the time left covers it at the rate such calls have taken of
// late (perPixel), with half as much again to spare. A step it refuses marks the frame as
// given up (ErrBudget when nothing read) but not expired: smaller steps after it still
// run. Each refusal lowers the rate a little, so that one slow call (the thread
// descheduled on a loaded machine) does not refuse every large crop after it.
func (d *Decoder) affords(px int) bool {
	if d.expired() {
		return false
	}
	if d.deadline.IsZero() || px < predictPixels || 1.5*d.perPixel*float64(px) <= float64(d.deadline.Sub(d.now)) {
		return true
	}
	d.gaveUp = true
	d.perPixel *= 0.9
	return false
}

// leftFor reports whether a step expected to take cost may start: the budget is not spent
// and the time left covers it. A step it refuses marks the frame as given up (ErrBudget when
// nothing read) but not expired, as affords does. Without a budget it is !expired().
func (d *Decoder) leftFor(cost time.Duration) bool {
	if d.expired() {
		return false
	}
	if d.deadline.IsZero() || d.deadline.Sub(d.now) >= cost {
		return true
	}
	d.gaveUp = true
	return false
}

// fitCost is a full fit's expected time on a grid of area px² (fitPerPixel; zero until one
// was timed). A fit's time grows with the pixels its grid covers: 1–3 ms on a symbol of
// 100 px, up to 13 ms on a window of clutter matched as a large grid, which, started with
// 12 ms left, took a frame of the 40-ms cadence to 50 ms.
func (d *Decoder) fitCost(area float64) time.Duration {
	return time.Duration(d.fitPerPixel * area)
}

// learnFit notes a full fit on a grid of area px² that began at start (the frame's budget
// only; a running mean, each fit a quarter of it).
func (d *Decoder) learnFit(start time.Time, area float64) {
	if d.deadline.IsZero() || area <= 0 {
		return
	}
	runningRate(&d.fitPerPixel, float64(d.clock.Now().Sub(start))/area)
}

// learn notes how long a call on a large crop of px pixels took since start (a reading of
// the clock by expired or affords just before it): perPixel is the running mean of the
// rates (each call a quarter of it), kept across frames (the machine's own speed). Small
// crops are left out: their fixed costs make their rate per pixel no guide to a large one.
func (d *Decoder) learn(start time.Time, px int) {
	if d.deadline.IsZero() || d.expiredOnce || px < predictPixels {
		return
	}
	runningRate(&d.perPixel, float64(d.clock.Now().Sub(start))/float64(px))
}

// runningRate moves the running mean *mean a quarter of the way to rate (the first rate
// sets it).
func runningRate(mean *float64, rate float64) {
	if *mean == 0 {
		*mean = rate
		return
	}
	*mean += (rate - *mean) / 4
}

// predictPixels is the crop size from which affords predicts a call's time: about 316×316
// pixels (a magnified crop, a large candidate's plain crop, the fallback's frame); a
// 240-pixel crop costs a few ms at most.
const predictPixels = 100_000
