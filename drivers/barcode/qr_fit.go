package barcode

// What a QR symbol fixes of its modules, for the fitted pass (matrix_fit.go): the three
// finder patterns and their separators, the timing patterns, the dark module, from version
// 2 on the alignment pattern nearest the bottom right corner, and a quiet zone of
// qrFitQuiet modules (the standard asks for four).

// qrFitQuiet is the quiet zone the fit takes as paper, in modules.
const qrFitQuiet = 2

// qrFitDims are the dimensions the fitted pass tries: versions 1 to 4 (the pass reads small
// symbols: a larger one at 1.5-px modules is wider than its candidates).
var qrFitDims = []int{21, 25, 29, 33}

// qrFitKnown returns the fixed modules of a dim×dim QR symbol (ISO/IEC 18004 6.3).
func qrFitKnown(dim int) fitKnown {
	q := qrFitQuiet
	ew := dim + 2*q
	kn := fitKnown{q: q, mods: make([]int8, ew*ew)}
	for m := range kn.mods {
		i, j := m%ew-q, m/ew-q
		if i < 0 || j < 0 || i >= dim || j >= dim {
			kn.mods[m] = 0
			continue
		}
		kn.mods[m] = qrFixedModule(i, j, dim)
	}
	return kn
}

// qrFixedModule is module (i, j) of a dim×dim symbol: 1 dark, 0 light, −1 data (or format
// or version information).
func qrFixedModule(i, j, dim int) int8 {
	finder := func(ci, cj int) int8 { // Chebyshev rings about a centre: 0–1 and 3 dark
		d := max(abs(i-ci), abs(j-cj))
		if d == 2 || d == 4 {
			return 0
		}
		return 1
	}
	switch {
	case i <= 7 && j <= 7:
		return finder(3, 3)
	case i >= dim-8 && j <= 7:
		return finder(dim-4, 3)
	case i <= 7 && j >= dim-8:
		return finder(3, dim-4)
	case i == 8 && j == dim-8:
		return 1 // the dark module
	case j == 6 && i >= 8 && i < dim-8:
		return int8(1 - i%2)
	case i == 6 && j >= 8 && j < dim-8:
		return int8(1 - j%2)
	}
	if dim >= 25 && dim <= 41 { // one alignment pattern, centred at (dim−7, dim−7)
		if d := max(abs(i-(dim-7)), abs(j-(dim-7))); d <= 2 {
			return int8(1 - d%2)
		}
	}
	return -1
}
