package game

import "math/rand/v2"

// CaviarPlay is a ticket of game 1, « Le p'tit dej au caviar » (article 4.2): one zone
// (4.2.1) showing either an amount of the game's table with its transcription in letters,
// or a mention inviting the player to go on playing (4.2.3).
type CaviarPlay struct {
	Amount  Cents // > 0 when the zone shows an amount
	Message uint8 // the mention shown otherwise
}

func (CaviarPlay) Game() int { return 1 }

// outcome applies 4.2.4: an amount wins itself; anything else loses.
func (p CaviarPlay) outcome(g *Game) (outcome, error) {
	if p.Amount == 0 {
		return outcome{}, checkVocab(1, "4.2.3", caviarMessages, p.Message)
	}
	if !g.HasLot(p.Amount) {
		return outcome{}, playErr(1, "4.2.3", "the zone shows %v, not a lot of the game's table", p.Amount)
	}
	return win(p.Amount), nil
}

func (p CaviarPlay) AppendEncode(dst []byte) []byte {
	if p.Amount > 0 {
		return appendEuros(dst, p.Amount)
	}
	return append(dst, caviarMessages[p.Message].code...)
}

func parseCaviar(s string) (Play, error) {
	if i, ok := caviarMessages.lookup(s); ok {
		return CaviarPlay{Message: i}, nil
	}
	a, err := parseEuros(s)
	if err != nil {
		return nil, err
	}
	return CaviarPlay{Amount: a}, nil
}

func (p CaviarPlay) Describe() []string {
	if p.Amount > 0 {
		return []string{"Grattez ici : " + shown(p.Amount)}
	}
	return []string{"Grattez ici : « " + caviarMessages.name(p.Message) + " »"}
}

func (CaviarPlay) generate(g *Game, r *rand.Rand, lot Cents) (Play, error) {
	if lot == 0 {
		return CaviarPlay{Message: uint8(r.IntN(len(caviarMessages)))}, nil
	}
	return CaviarPlay{Amount: lot}, nil
}
