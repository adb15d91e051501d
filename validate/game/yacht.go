package game

import "math/rand/v2"

// YachtPlay is a ticket of game 8, « Bonus, l'after sur le yacht » (article 4.9): one zone
// showing a word, with which an amount of the game's table may be shown (4.9.3).
type YachtPlay struct {
	Word   uint8
	Amount Cents // 0 when the word comes alone
}

func (YachtPlay) Game() int { return 8 }

// outcome applies 4.9.4: the word JET7 wins the amount shown with it.
func (p YachtPlay) outcome(g *Game) (outcome, error) {
	if err := checkVocab(8, "4.9.3", yachtWords, p.Word); err != nil {
		return outcome{}, err
	}
	if p.Amount != 0 && !g.HasLot(p.Amount) {
		return outcome{}, playErr(8, "4.9.3", "the word comes with %v, not a lot of the game's table", p.Amount)
	}
	if p.Word != winning {
		return outcome{}, nil
	}
	if p.Amount == 0 {
		return outcome{}, playErr(8, "4.9.4", "JET7 is shown without the amount it wins")
	}
	return win(p.Amount), nil
}

func (p YachtPlay) AppendEncode(dst []byte) []byte {
	if p.Amount == 0 {
		return append(dst, yachtWords[p.Word].code...)
	}
	return appendItem(dst, yachtWords, p.Word, p.Amount)
}

func parseYacht(s string) (Play, error) {
	if w, ok := yachtWords.lookup(s); ok {
		return YachtPlay{Word: w}, nil
	}
	w, a, err := parseItem(s, yachtWords)
	if err != nil {
		return nil, err
	}
	return YachtPlay{Word: w, Amount: a}, nil
}

func (p YachtPlay) Describe() []string {
	if p.Amount == 0 {
		return []string{"Grattez ici : " + yachtWords.name(p.Word)}
	}
	return []string{"Grattez ici : " + yachtWords.name(p.Word) + " — " + shown(p.Amount)}
}

// generate: a loser shows another word (JET1, JETS, …), half the time with an amount.
func (YachtPlay) generate(g *Game, r *rand.Rand, lot Cents) (Play, error) {
	if lot != 0 {
		return YachtPlay{Word: winning, Amount: lot}, nil
	}
	p := YachtPlay{Word: other(r, yachtWords)}
	if r.IntN(2) == 0 {
		p.Amount = tierAmount(r, g)
	}
	return p, nil
}
