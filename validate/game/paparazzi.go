package game

import (
	"fmt"
	"math/rand/v2"
)

// PaparazziPlay is a ticket of game 5, « Jouer avec les paparazzi » (article 4.6).
// Phase 1: three symbols under « Grattez ici, ici et là » and an amount under « Gain »
// (4.6.3). Phase 2: a sentence under the magazines saying whether the phase-1 gain is
// multiplied (4.6.4).
type PaparazziPlay struct {
	Symbols  [3]uint8
	Gain     Cents
	Sentence uint8
}

func (PaparazziPlay) Game() int { return 5 }

// outcome applies 4.6.3.3 (two « appareil photo » win the Gain) and 4.6.4 (the sentence
// multiplies it by 2 or 3, by nothing else).
func (p PaparazziPlay) outcome(*Game) (outcome, error) {
	if err := checkVocab(5, "4.6.3.1", paparazziSymbols, p.Symbols[:]...); err != nil {
		return outcome{}, err
	}
	if err := checkAmount(5, "4.6.3.2", p.Gain); err != nil {
		return outcome{}, err
	}
	if err := checkVocab(5, "4.6.4", paparazziSentences, p.Sentence); err != nil {
		return outcome{}, err
	}
	cameras := 0
	for _, s := range p.Symbols {
		if s == winning {
			cameras++
		}
	}
	if cameras < 2 {
		return outcome{}, nil
	}
	m := paparazziSentences[p.Sentence].mult
	return outcome{lot: p.Gain * Cents(m), surfaces: 1, mult: m}, nil
}

func (p PaparazziPlay) AppendEncode(dst []byte) []byte {
	dst = appendSymbols(dst, paparazziSymbols, p.Symbols[:])
	dst = append(dst, '|')
	dst = appendEuros(dst, p.Gain)
	dst = append(dst, '|')
	return append(dst, paparazziSentences[p.Sentence].code...)
}

func parsePaparazzi(s string) (Play, error) {
	var z [3]string
	var p PaparazziPlay
	var err error
	if err = split(s, '|', z[:]); err != nil {
		return nil, err
	}
	if err = parseSymbols(z[0], paparazziSymbols, p.Symbols[:]); err != nil {
		return nil, err
	}
	if p.Gain, err = parseEuros(z[1]); err != nil {
		return nil, err
	}
	if p.Sentence, err = parseEntry(z[2], paparazziSentences); err != nil {
		return nil, err
	}
	return p, nil
}

func (p PaparazziPlay) Describe() []string {
	return []string{
		"Grattez ici, ici et là : " + paparazziSymbols.name(p.Symbols[0]) + " · " +
			paparazziSymbols.name(p.Symbols[1]) + " · " + paparazziSymbols.name(p.Symbols[2]),
		"Gain : " + shown(p.Gain),
		"2e phase, Grattez ici : « " + paparazziSentences.name(p.Sentence) + " »",
	}
}

// paparazziWays are the phase-1 gain × multiplier that show each lot of 4.6.2 (euros).
// 15,000 € has no way without a multiplier (4.6.2, last paragraph).
var paparazziWays = map[int64][][2]int64{
	2:     {{2, 1}, {1, 2}},
	4:     {{4, 1}, {2, 2}},
	6:     {{6, 1}, {3, 2}, {2, 3}},
	8:     {{8, 1}, {4, 2}},
	30:    {{30, 1}, {15, 2}, {10, 3}},
	100:   {{100, 1}, {50, 2}},
	500:   {{500, 1}, {250, 2}},
	15000: {{5000, 3}, {7500, 2}},
}

// paparazziGains are the phase-1 gains the tickets show, winners' and losers' alike.
var paparazziGains = []int64{1, 2, 3, 4, 6, 8, 10, 15, 30, 50, 100, 250, 500, 5000, 7500}

// generate: a winner shows exactly two « appareil photo » and a third symbol; a loser
// shows one « appareil photo » (or a pair of another symbol), any gain, any sentence.
func (PaparazziPlay) generate(g *Game, r *rand.Rand, lot Cents) (Play, error) {
	var p PaparazziPlay
	if lot == 0 {
		p.Symbols = [3]uint8{winning, other(r, paparazziSymbols), other(r, paparazziSymbols)}
		if r.IntN(3) == 0 {
			p.Symbols[0] = p.Symbols[1] // a pair, but not of cameras
		}
		p.Gain = anyOf(r, paparazziGains)
		p.Sentence = uint8(r.IntN(len(paparazziSentences)))
	} else {
		ways := paparazziWays[int64(lot/100)]
		if len(ways) == 0 || lot%100 != 0 {
			return nil, fmt.Errorf("game: generating a play of game 5: no way to show %v", lot)
		}
		w := ways[r.IntN(len(ways))]
		p.Symbols = [3]uint8{winning, winning, other(r, paparazziSymbols)}
		p.Gain = Euros(w[0])
		p.Sentence = sentenceFor(paparazziSentences, int(w[1]), r.IntN)
	}
	r.Shuffle(3, func(i, j int) { p.Symbols[i], p.Symbols[j] = p.Symbols[j], p.Symbols[i] })
	return p, nil
}
