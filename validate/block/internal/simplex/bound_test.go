package simplex

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// smallProgram is min −x₁ − 2x₂ s.t. x₁ + x₂ + s₁ = 4, x₂ + s₂ = 3 (x, s ≥ 0): optimum
// x = (1, 3), value −7, two pivots from the slack basis.
func smallProgram() ([]float64, *mat.Dense, []float64, []int) {
	c := []float64{-1, -2, 0, 0}
	a := mat.NewDense(2, 4, []float64{
		1, 1, 1, 0,
		0, 1, 0, 1,
	})
	return c, a, []float64{4, 3}, []int{2, 3}
}

// A run stops at its pivot bound with ErrCycling (gonum's runs on for ever when it cycles),
// and a run under its bound ends at the optimum as gonum's does.
func TestPivotBound(t *testing.T) {
	c, a, b, basic := smallProgram()
	opt, x, err := Simplex(c, a, b, 1e-10, basic)
	if err != nil || math.Abs(opt+7) > 1e-9 || math.Abs(x[0]-1) > 1e-9 || math.Abs(x[1]-3) > 1e-9 {
		t.Fatalf("unbounded run: %v %v %v, want −7 at (1, 3)", opt, x, err)
	}
	defer func(f func(int, int) int) { pivotBound = f }(pivotBound)
	pivotBound = func(int, int) int { return 1 }
	if _, _, err := Simplex(c, a, b, 1e-10, basic); !errors.Is(err, ErrCycling) {
		t.Fatalf("bound 1 pivot: %v, want ErrCycling", err)
	}
}
