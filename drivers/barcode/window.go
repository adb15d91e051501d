package barcode

// slideLine sets dst[c·stride], for c in [0, n), to the maximum (or minimum) of
// src[i·stride] over the window i ∈ [c−h, c+h] clipped to [0, n), in O(n): q (at least n
// long) holds a queue of positions whose values run down from the window's extremum (up,
// for the minimum). gray.slide runs it along rows and columns; slidingExtreme along a
// band's profile, where the naive scan of every window (1,000–2,000 samples, windows of a
// tenth of it) cost more than the row decoders did.
func slideLine[T byte | float64](src, dst []T, n, stride, h int, isMax bool, q []int) {
	head, tail := 0, 0
	for i := 0; i < n+h; i++ {
		if i < n {
			v := src[i*stride]
			for tail > head && (isMax && v >= src[q[tail-1]*stride] || !isMax && v <= src[q[tail-1]*stride]) {
				tail--
			}
			q[tail] = i
			tail++
		}
		c := i - h // the output position whose window ends at i
		if c < 0 {
			continue
		}
		for q[head] < c-h {
			head++
		}
		dst[c*stride] = src[q[head]*stride]
	}
}

// slidingExtreme sets out[i] to the maximum (or minimum) of p over the window [i−h, i+h]
// clipped to p.
func slidingExtreme(p []float64, h int, isMax bool, out []float64) {
	slideLine(p, out, len(p), 1, h, isMax, make([]int, len(p)))
}
