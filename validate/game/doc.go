// Package game is the règlement of the pack game as code: the tables of articles 2–4
// as data (the embedded reglement.json, transcribed as printed, TOTAL columns included),
// and, for each of the eight games of article 4, a play model (what is printed under each
// scratch zone), the rules that turn a play into a lot (Evaluate), a compact text encoding
// of plays for the printer's file (Encode, ParsePlay), and a generator of plays for a given
// lot, including convincing losing plays (Generate).
//
// Amounts are Cents throughout. Every rule cites its sub-article; an evaluation error names
// the rule a play breaks. The package has no dependency on drivers or devices and runs
// anywhere, including under qemu.
package game
