package game

import (
	"fmt"
	"math/rand/v2"
)

// LimousinePlay is a ticket of game 6, « La sortie en limousine » (article 4.7), two
// independent surfaces whose gains add up (4.7.1, 4.7.2). Surface 1 (4.7.3): three symbols,
// each with an amount. Surface 2 (4.7.4): one symbol on the plate.
type LimousinePlay struct {
	Symbols [3]uint8
	Amounts [3]Cents
	Plate   uint8
}

func (LimousinePlay) Game() int { return 6 }

// plateGains are the gains of surface 2 by symbol (4.7.4); other symbols lose.
var plateGains = [...]Cents{Euros(2), Euros(5), Euros(200), Euros(5000)}

func (p LimousinePlay) outcome(*Game) (outcome, error) {
	if err := checkVocab(6, "4.7.3", limousineSymbols, p.Symbols[:]...); err != nil {
		return outcome{}, err
	}
	if err := checkVocab(6, "4.7.4", limousinePlate, p.Plate); err != nil {
		return outcome{}, err
	}
	var o outcome
	o.mult = 1
	heads := 0
	for i, s := range p.Symbols {
		if err := checkAmount(6, "4.7.3", p.Amounts[i]); err != nil {
			return outcome{}, err
		}
		if s == winning {
			heads++
			o.lot += p.Amounts[i]
		}
	}
	switch {
	case heads > 1:
		return outcome{}, playErr(6, "4.7.3", "surface 1 shows %d « tête de personnage »; the rule pays the amount of one winning symbol", heads)
	case heads == 1:
		o.surfaces++
	}
	if int(p.Plate) < len(plateGains) {
		o.lot += plateGains[p.Plate]
		o.surfaces++
	}
	return o, nil
}

func (p LimousinePlay) AppendEncode(dst []byte) []byte {
	for i := range p.Symbols {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendItem(dst, limousineSymbols, p.Symbols[i], p.Amounts[i])
	}
	dst = append(dst, '|')
	return append(dst, limousinePlate[p.Plate].code...)
}

func parseLimousine(s string) (Play, error) {
	var z [2]string
	var items [3]string
	var p LimousinePlay
	var err error
	if err = split(s, '|', z[:]); err != nil {
		return nil, err
	}
	if err = split(z[0], ',', items[:]); err != nil {
		return nil, err
	}
	for i := range items {
		if p.Symbols[i], p.Amounts[i], err = parseItem(items[i], limousineSymbols); err != nil {
			return nil, err
		}
	}
	if p.Plate, err = parseEntry(z[1], limousinePlate); err != nil {
		return nil, err
	}
	return p, nil
}

func (p LimousinePlay) Describe() []string {
	s1 := "Surface 1, Grattez ici :"
	for i := range p.Symbols {
		if i > 0 {
			s1 += " ·"
		}
		s1 += " " + limousineSymbols.name(p.Symbols[i]) + " " + shown(p.Amounts[i])
	}
	return []string{s1, "Surface 2, la plaque, Grattez ici : " + limousinePlate.name(p.Plate)}
}

// limousineWays are the ways to show each lot of 4.7.2 (euros): the amount of the
// « tête de personnage » on surface 1 (0: none) and the plate symbol (-1: a losing one).
// 20,000 € only adds both surfaces (4.7.2, last paragraph).
var limousineWays = map[int64][]struct {
	head  int64
	plate int
}{
	2:     {{2, -1}, {0, 0}},
	3:     {{3, -1}, {1, 0}},
	5:     {{5, -1}, {0, 1}, {3, 0}},
	10:    {{10, -1}, {5, 1}},
	20:    {{20, -1}, {15, 1}},
	50:    {{50, -1}, {45, 1}},
	200:   {{200, -1}, {0, 2}},
	500:   {{500, -1}, {300, 2}},
	20000: {{15000, 3}},
}

// limousineAmounts are the amounts surface 1 shows beside its symbols.
var limousineAmounts = []int64{1, 2, 3, 5, 10, 15, 20, 45, 50, 200, 300, 500, 15000}

// generate: surface-1 symbols that are not a head show amounts too; a losing plate shows a
// symbol that pays nothing.
func (LimousinePlay) generate(g *Game, r *rand.Rand, lot Cents) (Play, error) {
	var p LimousinePlay
	for i := range p.Symbols {
		p.Symbols[i] = other(r, limousineSymbols)
		p.Amounts[i] = anyOf(r, limousineAmounts)
	}
	p.Plate = uint8(len(plateGains) + r.IntN(len(limousinePlate)-len(plateGains)))
	if lot == 0 {
		return p, nil
	}
	ways := limousineWays[int64(lot/100)]
	if len(ways) == 0 || lot%100 != 0 {
		return nil, fmt.Errorf("game: generating a play of game 6: no way to show %v", lot)
	}
	w := ways[r.IntN(len(ways))]
	if w.head > 0 {
		i := r.IntN(3)
		p.Symbols[i], p.Amounts[i] = winning, Euros(w.head)
	}
	if w.plate >= 0 {
		p.Plate = uint8(w.plate)
	}
	return p, nil
}
