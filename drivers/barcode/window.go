package barcode

// slidingExtreme sets out[i] to the maximum (or minimum) of p over the window [i−h, i+h]
// clipped to p, in O(len(p)): a queue of positions whose values run down from the window's
// extremum (up, for the minimum). The naive scan of every window cost a band's profile
// (1,000–2,000 samples, windows of a tenth of it) more than the row decoders did.
func slidingExtreme(p []float64, h int, isMax bool, out []float64) {
	n := len(p)
	q := make([]int, 0, n) // each position enters once
	head, next := 0, 0
	for i := range n {
		for ; next < n && next <= i+h; next++ {
			v := p[next]
			for len(q) > head && (isMax && v >= p[q[len(q)-1]] || !isMax && v <= p[q[len(q)-1]]) {
				q = q[:len(q)-1]
			}
			q = append(q, next)
		}
		for q[head] < i-h {
			head++
		}
		out[i] = p[q[head]]
	}
}
