package game

import "math/rand/v2"

// ShoppingPlay is a ticket of game 4, « La virée shopping » (article 4.5): three symbols
// under « Grattez ici, ici et là » (4.5.3) and an amount of the game's table under
// « Gain » (4.5.4).
type ShoppingPlay struct {
	Symbols [3]uint8
	Gain    Cents
}

func (ShoppingPlay) Game() int { return 4 }

// outcome applies 4.5.5: three identical symbols win the Gain.
func (p ShoppingPlay) outcome(g *Game) (outcome, error) {
	if err := checkVocab(4, "4.5.3", shoppingSymbols, p.Symbols[:]...); err != nil {
		return outcome{}, err
	}
	if !g.HasLot(p.Gain) {
		return outcome{}, playErr(4, "4.5.4", "« Gain » shows %v, not a lot of the game's table", p.Gain)
	}
	if p.Symbols[0] == p.Symbols[1] && p.Symbols[1] == p.Symbols[2] {
		return win(p.Gain), nil
	}
	return outcome{}, nil
}

func (p ShoppingPlay) AppendEncode(dst []byte) []byte {
	dst = appendSymbols(dst, shoppingSymbols, p.Symbols[:])
	dst = append(dst, '|')
	return appendEuros(dst, p.Gain)
}

func parseShopping(s string) (Play, error) {
	var z [2]string
	var p ShoppingPlay
	var err error
	if err = split(s, '|', z[:]); err != nil {
		return nil, err
	}
	if err = parseSymbols(z[0], shoppingSymbols, p.Symbols[:]); err != nil {
		return nil, err
	}
	if p.Gain, err = parseEuros(z[1]); err != nil {
		return nil, err
	}
	return p, nil
}

func (p ShoppingPlay) Describe() []string {
	return []string{
		"Grattez ici, ici et là : " + shoppingSymbols.name(p.Symbols[0]) + " · " +
			shoppingSymbols.name(p.Symbols[1]) + " · " + shoppingSymbols.name(p.Symbols[2]),
		"Gain : " + shown(p.Gain),
	}
}

// generate: most losers are near-misses, two identical symbols and a third one different;
// the others show three different symbols.
func (ShoppingPlay) generate(g *Game, r *rand.Rand, lot Cents) (Play, error) {
	n := len(shoppingSymbols)
	a := uint8(r.IntN(n))
	if lot != 0 {
		return ShoppingPlay{Symbols: [3]uint8{a, a, a}, Gain: lot}, nil
	}
	b := uint8((int(a) + 1 + r.IntN(n-1)) % n)
	s := [3]uint8{a, a, b}
	if r.IntN(4) == 0 { // three different symbols
		s[1] = uint8((int(a) + 1 + r.IntN(n-1)) % n)
		for s[1] == b {
			s[1] = uint8((int(a) + 1 + r.IntN(n-1)) % n)
		}
	}
	r.Shuffle(3, func(i, j int) { s[i], s[j] = s[j], s[i] })
	return ShoppingPlay{Symbols: s, Gain: tierAmount(r, g)}, nil
}
