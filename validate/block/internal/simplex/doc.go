// Package simplex is gonum's simplex solver for linear programs in standard form
// (gonum.org/v1/gonum/optimize/convex/lp, v0.17.0, BSD licence: LICENSE), kept in the
// tree for two reasons. gonum's has no bound on its pivots, and on some degenerate
// programs it cycles for ever: about one block seed in seventy of the règlement's design
// never returned (posctl ledger gen, posd's demo block; a CI run's smoke stage hung past
// 4,800 s). Here each run stops after MaxPivots × (rows + columns) pivots with ErrCycling,
// far above what a program that ends needs (at most 0.17 × on the 24 seeds measured), and the design draws
// another program. And a block's design is rebuilt from its seed, years later, to settle
// its payouts (docs/block.md): the arithmetic that designed it must not change under a
// dependency upgrade. Everything else is gonum's code, unchanged (the changes are marked
// "packterm:").
package simplex
