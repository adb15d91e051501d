package game

import "math/rand/v2"

// FarnientePlay is a ticket of game 3, « La pause farniente » (article 4.4): two symbols
// under « Grattez ici » (4.4.3) and an amount of the game's table under « Gain » (4.4.4).
type FarnientePlay struct {
	Symbols [2]uint8
	Gain    Cents
}

func (FarnientePlay) Game() int { return 3 }

// outcome applies 4.4.5: two identical symbols win the Gain.
func (p FarnientePlay) outcome(g *Game) (outcome, error) {
	if err := checkVocab(3, "4.4.3", farnienteSymbols, p.Symbols[:]...); err != nil {
		return outcome{}, err
	}
	if !g.HasLot(p.Gain) {
		return outcome{}, playErr(3, "4.4.4", "« Gain » shows %v, not a lot of the game's table", p.Gain)
	}
	if p.Symbols[0] == p.Symbols[1] {
		return win(p.Gain), nil
	}
	return outcome{}, nil
}

func (p FarnientePlay) AppendEncode(dst []byte) []byte {
	dst = appendSymbols(dst, farnienteSymbols, p.Symbols[:])
	dst = append(dst, '|')
	return appendEuros(dst, p.Gain)
}

func parseFarniente(s string) (Play, error) {
	var z [2]string
	var p FarnientePlay
	var err error
	if err = split(s, '|', z[:]); err != nil {
		return nil, err
	}
	if err = parseSymbols(z[0], farnienteSymbols, p.Symbols[:]); err != nil {
		return nil, err
	}
	if p.Gain, err = parseEuros(z[1]); err != nil {
		return nil, err
	}
	return p, nil
}

func (p FarnientePlay) Describe() []string {
	return []string{
		"Grattez ici : " + farnienteSymbols.name(p.Symbols[0]) + " · " + farnienteSymbols.name(p.Symbols[1]),
		"Gain : " + shown(p.Gain),
	}
}

// generate: a loser shows two different symbols.
func (FarnientePlay) generate(g *Game, r *rand.Rand, lot Cents) (Play, error) {
	n := len(farnienteSymbols)
	a := uint8(r.IntN(n))
	if lot == 0 {
		b := uint8((int(a) + 1 + r.IntN(n-1)) % n)
		return FarnientePlay{Symbols: [2]uint8{a, b}, Gain: tierAmount(r, g)}, nil
	}
	return FarnientePlay{Symbols: [2]uint8{a, a}, Gain: lot}, nil
}
