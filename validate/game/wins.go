package game

import (
	"fmt"
	"strconv"
	"strings"
)

// A Win is one winning zone or surface of a ticket: how the règlement names it, what the
// player finds there, and what it adds to the ticket's lot.
type Win struct {
	Article string // the sub-article that makes it win, e.g. "4.8.5"
	Zone    string // the zone or surface in the règlement's words (French)
	Found   string // what wins there (French)
	Lot     Cents  // what it adds to the ticket's lot, any multiplier applied
}

// String reads « La piscine party » (4.8.5) : 4 symboles « personnage » → 100 €.
func (w Win) String() string {
	return fmt.Sprintf("%s (%s) : %s → %v", w.Zone, w.Article, w.Found, w.Lot)
}

// Wins names the zones or surfaces of p that make up its lot, in the ticket's order; a
// losing play has none. Their lots add up to what Evaluate gives, and an invalid play gets
// Evaluate's *PlayError.
func (d *Definition) Wins(p Play) ([]Win, error) {
	lot, err := d.Evaluate(p)
	if err != nil || lot == 0 {
		return nil, err
	}
	ws := p.wins()
	var sum Cents
	for _, w := range ws {
		sum += w.Lot
	}
	if sum != lot {
		return nil, fmt.Errorf("game: the winning zones of game %d add up to %v, not its lot of %v", p.Game(), sum, lot)
	}
	return ws, nil
}

func (p CaviarPlay) wins() []Win {
	if p.Amount == 0 {
		return nil
	}
	return []Win{{"4.2.4", "la zone à gratter « Grattez ici »", "la somme de " + p.Amount.String(), p.Amount}}
}

func (p JacuzziPlay) wins() []Win {
	if p.Word != winning {
		return nil
	}
	return []Win{{"4.3.4", "la zone à gratter « Grattez ici »", "le mot « BULLE » et sa somme", p.Amount}}
}

func (p FarnientePlay) wins() []Win {
	if p.Symbols[0] != p.Symbols[1] {
		return nil
	}
	return []Win{{"4.4.5", "« Grattez ici » et « Gain »",
		"deux symboles « " + farnienteSymbols.name(p.Symbols[0]) + " » identiques, la somme du Gain", p.Gain}}
}

func (p ShoppingPlay) wins() []Win {
	if p.Symbols[0] != p.Symbols[1] || p.Symbols[1] != p.Symbols[2] {
		return nil
	}
	return []Win{{"4.5.5", "« Grattez ici, ici et là » et « Gain »",
		"trois symboles « " + shoppingSymbols.name(p.Symbols[0]) + " » identiques, la somme du Gain", p.Gain}}
}

func (p PaparazziPlay) wins() []Win {
	if winners(p.Symbols[:]) < 2 {
		return nil
	}
	m := paparazziSentences[p.Sentence].mult
	return []Win{{"4.6.3.3, 4.6.4", "1re phase « Grattez ici, ici et là » et « Gain », 2e phase les magazines",
		"deux symboles « appareil photo », Gain de " + p.Gain.String() + multiplied(m), p.Gain * Cents(m)}}
}

func (p LimousinePlay) wins() []Win {
	var ws []Win
	for i, s := range p.Symbols {
		if s == winning {
			ws = append(ws, Win{"4.7.3", "la 1re surface de jeu",
				"un symbole « tête de personnage » et sa somme", p.Amounts[i]})
		}
	}
	if int(p.Plate) < len(plateGains) {
		ws = append(ws, Win{"4.7.4", "la 2e surface de jeu, la plaque",
			"un symbole « " + limousinePlate.name(p.Plate) + " »", plateGains[p.Plate]})
	}
	return ws
}

func (p SoireePlay) wins() []Win {
	var ws []Win
	if p.Word == winning {
		ws = append(ws, Win{"4.8.3", "la 1re surface « L'invitation »", "le mot « VIP » et sa somme", p.WordAmount})
	}
	var cosy Cents
	var amounts []string
	for i, s := range p.Tables {
		if s == winning {
			cosy += p.TableAmounts[i]
			amounts = append(amounts, p.TableAmounts[i].String())
		}
	}
	if len(amounts) > 0 {
		ws = append(ws, Win{"4.8.4", "la 2e surface « Le coin cosy »",
			symbols(len(amounts), "verre à cocktail") + " : " + strings.Join(amounts, " + "), cosy})
	}
	if n := winners(p.Pool[:]); poolGains[n] > 0 {
		ws = append(ws, Win{"4.8.5", "la 3e surface « La piscine party »", symbols(n, "personnage"), poolGains[n]})
	}
	if p.Digits[0]+p.Digits[1] == 7 {
		m := djSentences[p.Sentence].mult
		ws = append(ws, Win{"4.8.6.2, 4.8.6.3", "la 4e surface « La star des DJ »",
			"disques d'or " + strconv.Itoa(int(p.Digits[0])) + " + " + strconv.Itoa(int(p.Digits[1])) +
				" = 7, Gain de " + p.DJGain.String() + multiplied(m), p.DJGain * Cents(m)})
	}
	return ws
}

func (p YachtPlay) wins() []Win {
	if p.Word != winning {
		return nil
	}
	return []Win{{"4.9.4", "la zone à gratter « Grattez ici »", "le mot « JET7 » et sa somme", p.Amount}}
}

// winners is the number of winning symbols in s.
func winners(s []uint8) int {
	n := 0
	for _, v := range s {
		if v == winning {
			n++
		}
	}
	return n
}

// symbols reads "1 symbole « personnage »" or "4 symboles « personnage »".
func symbols(n int, name string) string {
	if n == 1 {
		return "1 symbole « " + name + " »"
	}
	return strconv.Itoa(n) + " symboles « " + name + " »"
}

// multiplied says what the 2e phase did to the Gain.
func multiplied(m int) string {
	if m < 2 {
		return ", sans multiplication (2e phase)"
	}
	return ", multiplié par " + strconv.Itoa(m) + " (2e phase)"
}
