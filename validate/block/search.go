package block

import (
	"math/rand/v2"
)

// branching bounds the alternatives the search tries at each step.
const branching = 6

// search places the packs and lots left in need exactly, or reports failure. It always
// places the largest remaining lot first (big lots fit in few packs), choosing among
// the compositions that hold it and fit what remains, in random order, with a bounded
// number of alternatives per step and of steps overall.
func (p *problem) search(need counts, support map[Composition]bool, r *rand.Rand) ([]Composition, bool) {
	need = append(counts(nil), need...)
	// A negative row (rounding) cannot be searched; the caller hands packs back.
	for _, v := range need {
		if v < 0 {
			return nil, false
		}
	}
	s := &searcher{p: p, need: need, r: r, budget: searchBudget}
	s.index(support)
	if s.dfs() {
		return s.placed, true
	}
	return nil, false
}

type searcher struct {
	p      *problem
	need   counts
	r      *rand.Rand
	budget int
	placed []Composition
	// holding[row] lists every allowed composition holding the lot of that row.
	holding [][]candidate
	// preferred[row] is how many of holding[row], at its start, the relaxation used.
	preferred []int
	// lotRows lists lot rows by decreasing amount.
	lotRows []int
}

type candidate struct {
	c   Composition
	row int // its pack amount's row
}

// index lists, for each lot, the compositions that hold it: first those the linear
// relaxation used (support), which a solution is likely to need, then the others.
func (s *searcher) index(support map[Composition]bool) {
	p := s.p
	s.holding = make([][]candidate, p.rows)
	s.preferred = make([]int, p.rows)
	for pass := range 2 {
		for ai, all := range p.all {
			for _, c := range all {
				if support[c] != (pass == 0) {
					continue
				}
				for g, k := range c[:len(p.d.Games)] {
					if k != 0 {
						row := p.lotRow[g][k]
						s.holding[row] = append(s.holding[row], candidate{c, ai})
						if pass == 0 {
							s.preferred[row]++
						}
					}
				}
			}
		}
	}
	type lr struct {
		row    int
		amount int64
	}
	var rows []lr
	for g, gm := range p.d.Games {
		for k, t := range gm.Tiers {
			rows = append(rows, lr{p.lotRow[g][k+1], int64(t.Amount)})
		}
	}
	// Stable order: by amount, largest first.
	for i := 1; i < len(rows); i++ {
		for j := i; j > 0 && rows[j].amount > rows[j-1].amount; j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
	for _, x := range rows {
		s.lotRows = append(s.lotRows, x.row)
	}
}

func (s *searcher) feasible() bool {
	p := s.p
	packs := 0
	for i := range p.amounts {
		packs += s.need[i]
	}
	lots := 0
	for g := range p.d.Games {
		n := 0
		for _, row := range p.lotRow[g][1:] {
			n += s.need[row]
		}
		if n > packs { // a pack holds one ticket of each game
			return false
		}
		lots += n
	}
	w := p.d.WinnersPerPack
	return lots >= packs*w[0] && lots <= packs*w[len(w)-1]
}

func (s *searcher) dfs() bool {
	if s.budget--; s.budget < 0 {
		return false
	}
	// The largest lot still to place.
	row := -1
	for _, lr := range s.lotRows {
		if s.need[lr] > 0 {
			row = lr
			break
		}
	}
	if row < 0 {
		for i := range s.p.amounts {
			if s.need[i] != 0 {
				return false
			}
		}
		return true
	}
	if !s.feasible() {
		return false
	}
	cands := s.holding[row]
	pref := s.preferred[row]
	// The relaxation's compositions first (in random order), then the others from a
	// random starting point.
	startPref := s.r.IntN(pref + 1)
	startRest := s.r.IntN(len(cands) - pref + 1)
	tried := 0
	for i := 0; i < len(cands) && tried < branching; i++ {
		var c candidate
		if i < pref {
			c = cands[(startPref+i)%pref]
		} else {
			c = cands[pref+(startRest+i-pref)%(len(cands)-pref)]
		}
		if !s.need.fits(s.p, c.c, c.row, 1) {
			continue
		}
		tried++
		s.need.take(s.p, c.c, 1)
		s.placed = append(s.placed, c.c)
		if s.dfs() {
			return true
		}
		s.placed = s.placed[:len(s.placed)-1]
		s.need.take(s.p, c.c, -1)
		if s.budget < 0 {
			return false
		}
	}
	return false
}
