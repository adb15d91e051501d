package config

import "strings"

// closest returns the candidate nearest to s in edit distance, ignoring case, if near
// enough to be a typo (one edit for short names, two from five letters on), else "".
func closest(s string, candidates []string) string {
	if len(s) > 64 {
		return ""
	}
	best, bestD := "", 0
	for _, c := range candidates {
		d := editDistance(strings.ToLower(s), strings.ToLower(c))
		if best == "" || d < bestD {
			best, bestD = c, d
		}
	}
	limit := 1
	if len(s) >= 5 {
		limit = 2
	}
	if best == "" || bestD > limit {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
