package block

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/packterm/pos/validate/block/internal/simplex"
	"github.com/packterm/pos/validate/game"
)

// A Pattern is a composition and the number of packs of the block that hold it.
type Pattern struct {
	Composition Composition
	Packs       int
}

// A Design is the content of every pack of a block, up to the order of packs: its
// patterns' pack counts add up to the block's packs, and together they use every lot of
// every game's table exactly once and give every amount of the pack table exactly its
// count (Verify checks it).
type Design struct {
	Patterns []Pattern
	// Stats says how the solver got there.
	Stats SolveStats
}

// SolveStats describes a run of Solve.
type SolveStats struct {
	Columns  int // compositions offered to the linear program
	Residual int // packs placed by the exact search
	Rounds   int // searches run in the successful attempt (1 when the first succeeded)
	Attempts int // relaxations tried (1 when the first, mixed one succeeded)
	Vertices int // solutions of the relaxation mixed in the successful attempt
}

// Packs is the number of packs of the design.
func (ds *Design) Packs() int {
	n := 0
	for _, p := range ds.Patterns {
		n += p.Packs
	}
	return n
}

// Solver limits. Columns caps the compositions offered to the linear program per pack
// amount (the fewest winners first); the residual search gets every composition.
const (
	columnsPerAmount = 600
	minColumns       = 24
	searchBudget     = 100_000 // nodes per residual search
	maxRounds        = 6
)

// ErrNoDesign is returned when no design satisfying the definition was found.
var ErrNoDesign = errors.New("block: no design satisfies the definition")

// Solve finds a design for definition d. It solves the linear relaxation of the design
// problem over pack compositions for several random objectives drawn from r and averages
// the solutions (so that designs are varied and differ with the seed), keeps the integer
// part, and completes the small remainder exactly by a bounded search; should the search
// fail, it hands packs back to the search, and then falls back to single solutions of the
// relaxation with fresh objectives (docs/block.md). The result is checked with Verify.
func Solve(d *game.Definition, r *rand.Rand) (*Design, error) {
	if len(d.Games) > MaxGames {
		return nil, fmt.Errorf("block: %d games, at most %d", len(d.Games), MaxGames)
	}
	p := newProblem(d)
	// Mixing several vertices gives varied designs but leaves more to the exact search;
	// should that search fail, fall back to single vertices with fresh random costs.
	for attempt, k := range []int{mixedVertices, 1, 1, 2, 1, 1, 1, 1} {
		ds, err := p.attempt(r, k)
		if err == nil {
			ds.Stats.Attempts = attempt + 1
			ds.Stats.Vertices = k
			return ds, nil
		}
		if !errors.Is(err, errSearch) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%w: the exact search failed after every relaxation", ErrNoDesign)
}

var errSearch = errors.New("block: residual search failed")

// attempt solves the relaxation (mixing k vertices), keeps its integer part and
// completes it by the exact search, handing packs back on failure.
func (p *problem) attempt(r *rand.Rand, k int) (*Design, error) {
	d := p.d
	cols, x, err := p.mixedRelaxation(r, k)
	if err != nil {
		return nil, err
	}
	// Integer part, and what remains for the search.
	counts := make([]int, len(cols))
	need := p.target()
	support := map[Composition]bool{}
	for i, v := range x {
		counts[i] = int(math.Floor(v + 1e-7))
		need.take(p, cols[i], counts[i])
		if v > 1e-7 {
			support[cols[i]] = true
		}
	}
	slack := 0
	for round := 0; round < maxRounds; round++ {
		if round > 0 {
			// Hand packs back to the search: more freedom to complete exactly.
			slack = max(16, 2*slack)
			handBack(p, cols, counts, need, slack, r)
		}
		if extra, ok := p.search(need, support, r); ok {
			ds := &Design{Stats: SolveStats{Columns: len(cols), Residual: len(extra), Rounds: round + 1}}
			add := map[Composition]int{}
			for i, n := range counts {
				add[cols[i]] += n
			}
			for _, c := range extra {
				add[c]++
			}
			for c, n := range add {
				if n > 0 {
					ds.Patterns = append(ds.Patterns, Pattern{Composition: c, Packs: n})
				}
			}
			ds.sort()
			if err := ds.Verify(d); err != nil {
				return nil, fmt.Errorf("block: solver produced an invalid design: %w", err)
			}
			return ds, nil
		}
	}
	return nil, errSearch
}

func (ds *Design) sort() {
	sort.Slice(ds.Patterns, func(i, j int) bool {
		a, b := ds.Patterns[i].Composition, ds.Patterns[j].Composition
		return slices.Compare(a[:], b[:]) < 0
	})
}

// problem indexes the rows of the design problem: one per pack amount, one per lot of
// each game.
type problem struct {
	d        *game.Definition
	amounts  []game.Cents // pack table amounts, table order
	lotRow   [MaxGames][]int
	rows     int
	byAmount map[game.Cents]int
	all      [][]Composition // every allowed composition, by pack amount
}

func newProblem(d *game.Definition) *problem {
	p := &problem{d: d, byAmount: map[game.Cents]int{}}
	for i, t := range d.PackTable {
		p.amounts = append(p.amounts, t.Amount)
		p.byAmount[t.Amount] = i
	}
	p.rows = len(p.amounts)
	for g, gm := range d.Games {
		p.lotRow[g] = make([]int, len(gm.Tiers)+1)
		for k := range gm.Tiers {
			p.lotRow[g][k+1] = p.rows
			p.rows++
		}
	}
	maxW := d.WinnersPerPack[len(d.WinnersPerPack)-1]
	for _, a := range p.amounts {
		p.all = append(p.all, enumerate(d, a, maxW))
	}
	return p
}

// counts is a vector over the problem's rows.
type counts []int

func (p *problem) target() counts {
	c := make(counts, p.rows)
	for i, t := range p.d.PackTable {
		c[i] = t.Count
	}
	for g, gm := range p.d.Games {
		for k, t := range gm.Tiers {
			c[p.lotRow[g][k+1]] = t.Count
		}
	}
	return c
}

// take removes n packs of composition c from the counts.
func (c counts) take(p *problem, comp Composition, n int) {
	c[p.byAmount[comp.Amount(p.d)]] -= n
	for g, k := range comp[:len(p.d.Games)] {
		if k != 0 {
			c[p.lotRow[g][k]] -= n
		}
	}
}

// fits reports whether n packs of c fit in the counts.
func (c counts) fits(p *problem, comp Composition, amountRow int, n int) bool {
	if c[amountRow] < n {
		return false
	}
	for g, k := range comp[:len(p.d.Games)] {
		if k != 0 && c[p.lotRow[g][k]] < n {
			return false
		}
	}
	return true
}

// columns chooses the compositions offered to the linear program: for each pack amount,
// those with the fewest winners first, up to a cap (perCount per pack of that amount,
// at least minColumns, at most columnsPerAmount), sampled at random within the last
// winners count that crosses it.
func (p *problem) columns(r *rand.Rand, perCount int) []Composition {
	var cols []Composition
	for ai, all := range p.all {
		byW := map[int][]Composition{}
		for _, c := range all {
			byW[c.Winners()] = append(byW[c.Winners()], c)
		}
		left := min(columnsPerAmount, max(minColumns, perCount*p.d.PackTable[ai].Count))
		for w := 1; w <= MaxGames && left > 0; w++ {
			cs := byW[w]
			if len(cs) > left {
				cs = slices.Clone(cs)
				r.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
				cs = cs[:left]
			}
			cols = append(cols, cs...)
			left -= len(cs)
		}
	}
	return cols
}

// relax solves the linear relaxation: x ≥ 0 packs per column, every row met exactly,
// minimising a random cost.
func (p *problem) relax(cols []Composition, r *rand.Rand) ([]float64, error) {
	a := mat.NewDense(p.rows, len(cols), nil)
	for j, c := range cols {
		a.Set(p.byAmount[c.Amount(p.d)], j, 1)
		for g, k := range c[:len(p.d.Games)] {
			if k != 0 {
				a.Set(p.lotRow[g][k], j, 1)
			}
		}
	}
	b := p.target()
	rows := independentRows(a)
	ar := mat.NewDense(len(rows), len(cols), nil)
	br := make([]float64, len(rows))
	for i, row := range rows {
		ar.SetRow(i, a.RawRowView(row))
		br[i] = float64(b[row])
	}
	cost := make([]float64, len(cols))
	for j, c := range cols {
		cost[j] = r.Float64() + 0.05*float64(c.Winners())
	}
	_, x, err := simplex.Simplex(cost, ar, br, 1e-9, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: linear relaxation: %v", ErrNoDesign, err)
	}
	return x, nil
}

// mixedVertices is the number of solutions of the linear relaxation (each for its own
// random cost and column sample) a first attempt averages into the design: a mean of
// feasible solutions is feasible, and it mixes more compositions than any one vertex
// holds (at most one per row).
const mixedVertices = 4

// mixedRelaxation solves the relaxation for k random costs and averages the solutions
// over the union of their columns.
func (p *problem) mixedRelaxation(r *rand.Rand, k int) ([]Composition, []float64, error) {
	index := map[Composition]int{}
	var cols []Composition
	var sum []float64
	for range k {
		var vc []Composition
		var vx []float64
		var err error
		// Few columns make a fast linear program; widen the offer if it proves infeasible,
		// or if the simplex cycled (simplex.ErrCycling: rare, and only on a program no
		// block was ever designed from).
		for perCount := 4; ; perCount *= 4 {
			vc = p.columns(r, perCount)
			if vx, err = p.relax(vc, r); err == nil {
				break
			}
			if perCount > 1000 {
				return nil, nil, err
			}
		}
		for j, c := range vc {
			if vx[j] <= 1e-9 {
				continue
			}
			i, ok := index[c]
			if !ok {
				i = len(cols)
				index[c] = i
				cols = append(cols, c)
				sum = append(sum, 0)
			}
			sum[i] += vx[j]
		}
	}
	for i := range sum {
		sum[i] /= float64(k)
	}
	return cols, sum, nil
}

// independentRows picks a maximal set of linearly independent rows of a (the rows of the
// design problem are dependent: the amounts of the lots add up to the amounts of the packs).
func independentRows(a *mat.Dense) []int {
	rows, cols := a.Dims()
	m := mat.DenseCopyOf(a)
	var keep []int
	basis := [][]float64{}
	pivots := []int{}
	for i := 0; i < rows; i++ {
		v := slices.Clone(m.RawRowView(i))
		for bi, bv := range basis {
			pc := pivots[bi]
			if f := v[pc]; f != 0 {
				for j := 0; j < cols; j++ {
					v[j] -= f * bv[j]
				}
			}
		}
		pc, best := -1, 1e-9
		for j, x := range v {
			if math.Abs(x) > best {
				pc, best = j, math.Abs(x)
			}
		}
		if pc < 0 {
			continue
		}
		f := v[pc]
		for j := range v {
			v[j] /= f
		}
		basis = append(basis, v)
		pivots = append(pivots, pc)
		keep = append(keep, i)
	}
	return keep
}

// handBack moves n packs from the integer part back to what the search must place.
func handBack(p *problem, cols []Composition, cnt []int, need counts, n int, r *rand.Rand) {
	var live []int
	for i, c := range cnt {
		if c > 0 {
			live = append(live, i)
		}
	}
	for ; n > 0 && len(live) > 0; n-- {
		k := r.IntN(len(live))
		i := live[k]
		cnt[i]--
		need.take(p, cols[i], -1)
		if cnt[i] == 0 {
			live = slices.Delete(live, k, k+1)
		}
	}
}
