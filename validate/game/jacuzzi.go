package game

import "math/rand/v2"

// JacuzziPlay is a ticket of game 2, « Buller dans mon jacuzzi » (article 4.3): one zone
// showing a word with an amount of the game's table (4.3.3).
type JacuzziPlay struct {
	Word   uint8
	Amount Cents
}

func (JacuzziPlay) Game() int { return 2 }

// outcome applies 4.3.4: the word BULLE wins the amount shown with it.
func (p JacuzziPlay) outcome(g *Game) (outcome, error) {
	if err := checkVocab(2, "4.3.3", jacuzziWords, p.Word); err != nil {
		return outcome{}, err
	}
	if !g.HasLot(p.Amount) {
		return outcome{}, playErr(2, "4.3.3", "the word comes with %v, not a lot of the game's table", p.Amount)
	}
	if p.Word == winning {
		return win(p.Amount), nil
	}
	return outcome{}, nil
}

func (p JacuzziPlay) AppendEncode(dst []byte) []byte {
	return appendItem(dst, jacuzziWords, p.Word, p.Amount)
}

func parseJacuzzi(s string) (Play, error) {
	w, a, err := parseItem(s, jacuzziWords)
	if err != nil {
		return nil, err
	}
	return JacuzziPlay{Word: w, Amount: a}, nil
}

func (p JacuzziPlay) Describe() []string {
	return []string{"Grattez ici : " + jacuzziWords.name(p.Word) + " — " + shown(p.Amount)}
}

// generate: a loser shows a word other than BULLE, often one letter away (BALLE, BOULE,
// BILLE), with any amount of the table.
func (JacuzziPlay) generate(g *Game, r *rand.Rand, lot Cents) (Play, error) {
	if lot == 0 {
		return JacuzziPlay{Word: other(r, jacuzziWords), Amount: tierAmount(r, g)}, nil
	}
	return JacuzziPlay{Word: winning, Amount: lot}, nil
}
