package barcode

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// TestCadenceBudgets: the first frame and one in Every after it have the Full budget, the
// others Quick; Every of 1 or less gives every frame Full.
func TestCadenceBudgets(t *testing.T) {
	c := Cadence{Quick: 8 * time.Millisecond, Full: 40 * time.Millisecond, Every: 4}
	var got []time.Duration
	for n := range uint64(9) {
		got = append(got, c.budget(n)/time.Millisecond)
	}
	want := []time.Duration{40, 8, 8, 8, 40, 8, 8, 8, 40}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("budgets %v ms, want %v", got, want)
		}
	}
	for _, every := range []int{-1, 0, 1} {
		c.Every = every
		if c.budget(1) != c.Full || c.budget(2) != c.Full {
			t.Errorf("Every %d: frames 1 and 2 have %v and %v, want Full", every, c.budget(1), c.budget(2))
		}
	}
}

// TestStreamSpendsItsCadence: on a stream of clutter frames (nothing to read: every frame
// runs until its budget ends), the stream's decoder spends the Full budget on frames 0 and 4
// and the Quick one on the others, and each frame that ran out is an ErrBudget; a plain code
// still reads on a Quick frame (its first pass reads it in a few steps).
func TestStreamSpendsItsCadence(t *testing.T) {
	rng := rand.New(rand.NewPCG(frameSeed+3, 7))
	empty, _ := makeFrame(rng, 0, "")
	clk := &stepClock{FakeClock: clockwork.NewFakeClock(), step: time.Millisecond}
	s := NewStream(Options{Formats: AllFormats, Clock: clk}, DefaultCadence())
	var spent []time.Duration
	for range 6 {
		t0 := clk.FakeClock.Now()
		if _, err := s.Decode(empty); !errors.Is(err, ErrBudget) {
			t.Fatalf("frame %d of clutter: %v, want ErrBudget", len(spent), err)
		}
		spent = append(spent, clk.FakeClock.Now().Sub(t0))
	}
	for i, d := range spent {
		want := DefaultCadence().Quick
		if i%4 == 0 {
			want = DefaultCadence().Full
		}
		// The budget's own reading starts it; a few readings on the way out end it.
		if d < want || d > want+6*clk.step {
			t.Errorf("frame %d spent %v, want %v (the cadence's budget) and a few steps", i, d, want)
		}
	}

	// Frame 6 is a Quick frame: a plain code reads in it.
	frame := plainCodeFrame(t, "004201234560")
	if s.c.budget(s.n) != DefaultCadence().Quick {
		t.Fatalf("frame %d is not a Quick frame", s.n)
	}
	if res, err := s.Decode(frame); err != nil || res.Text != "004201234560" {
		t.Errorf("a plain code on a Quick frame: %q, %v", res.Text, err)
	}
}
