// Package block builds a whole block of the pack game: the design (which lots sit
// together in a pack, satisfying exactly every table and rule of articles 3 and 4 of the
// règlement), the placement of packs across pack numbers by a cryptographically secure
// shuffle, every ticket's secret and play, the printer's file, and the audit that
// re-derives every table from the printer's file and the sealed ledger.
//
// Everything is reproducible from a recorded 256-bit seed: the same seed and definition
// give byte-identical output.
package block
