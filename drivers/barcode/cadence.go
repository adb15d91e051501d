package barcode

import (
	"image"
	"time"
)

// Cadence spreads a camera's search over its frames. A camera shows the same scene in
// frame after frame, so a frame need not be searched to the end: most frames get a short
// budget (Quick), enough for the first passes, in which almost every symbol reads (the
// located candidates, plain); one frame in Every gets the long one (Full), in which the
// late passes run (smoothed, halved, turned, deblurred, the full-frame fallback). A symbol
// that reads only late is then read within Every frames; a frame without a code costs Quick
// on most frames instead of Full on every one, which leaves the rest of the CPU to the
// terminal (docs/codes.md, Speed: the camera's cadence).
type Cadence struct {
	// Quick is the budget of most frames.
	Quick time.Duration
	// Full is the budget of one frame in Every (zero: no limit).
	Full time.Duration
	// Every is how often a frame has the Full budget: the first frame, then one in Every.
	// 1 or less: every frame.
	Every int
}

// DefaultCadence is a camera's cadence at 25 frames a second: one frame in four searched
// for up to a frame interval (40 ms), the others for 8 ms. It keeps a frame's median cost
// at 8 ms and its 99th percentile under 50 ms on every set (docs/codes.md, Speed), and
// reads a symbol that needs the late passes within four frames (160 ms).
func DefaultCadence() Cadence {
	return Cadence{Quick: 6 * time.Millisecond, Full: 40 * time.Millisecond, Every: 4}
}

// budget is the budget of the n-th frame (from 0).
func (c Cadence) budget(n uint64) time.Duration {
	if c.Every <= 1 || n%uint64(c.Every) == 0 {
		return c.Full
	}
	return c.Quick
}

// Stream decodes a camera's frames in turn, each within its budget under a Cadence; the
// options' Budget is not used. It is not safe for concurrent use.
type Stream struct {
	d *Decoder
	c Cadence
	n uint64
}

// NewStream returns a stream of frames decoded with opt under c.
func NewStream(opt Options, c Cadence) *Stream {
	return &Stream{d: NewDecoder(opt), c: c}
}

// Decode reads the stream's next frame as Decoder.Decode does, within the frame's budget:
// past it, ErrBudget (an ErrNotFound).
func (s *Stream) Decode(img image.Image) (Result, error) {
	s.d.opt.Budget = s.c.budget(s.n)
	s.n++
	return s.d.Decode(img)
}
