package barcode

// What a DataMatrix symbol fixes of its modules, for the fitted pass (matrix_fit.go): the
// solid L (left column and bottom row), the clock track (top row and right column, dark
// and light in turn from the L's ends), and one module of quiet zone round it (the
// standard's minimum). Square symbols of one data region only (up to 26×26).

// dmFitSizes are the square sizes the fitted pass tries.
var dmFitSizes = []int{10, 12, 14, 16, 18, 20, 22, 24, 26}

// dmFitKnown returns the fixed modules of an n×n single-region DataMatrix symbol.
func dmFitKnown(n int) fitKnown {
	const q = 1
	ew := n + 2*q
	kn := fitKnown{q: q, mods: make([]int8, ew*ew), fine: func(i, j int) bool {
		return (j == 0 && i < n-1) || (i == n-1 && j < n-1) // the clock track
	}}
	for m := range kn.mods {
		i, j := m%ew-q, m/ew-q
		switch {
		case i < 0 || j < 0 || i >= n || j >= n:
			kn.mods[m] = 0
		case i == 0 || j == n-1:
			kn.mods[m] = 1 // the L
		case j == 0:
			kn.mods[m] = int8(1 - i%2) // the top clock: dark from the left
		case i == n-1:
			kn.mods[m] = int8((n - 1 - j + 1) % 2) // the right clock: dark from the bottom
		default:
			kn.mods[m] = -1
		}
	}
	return kn
}
