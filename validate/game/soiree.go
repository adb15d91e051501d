package game

import (
	"fmt"
	"math/rand/v2"
	"strconv"
)

// SoireePlay is a ticket of game 7, « La soirée privée » (article 4.8): four independent
// surfaces whose gains add up (4.8.1, 4.8.2).
type SoireePlay struct {
	// « L'invitation » (4.8.3): a word with an amount.
	Word       uint8
	WordAmount Cents
	// « Le coin cosy » (4.8.4): three symbols, each with an amount.
	Tables       [3]uint8
	TableAmounts [3]Cents
	// « La piscine party » (4.8.5): six symbols.
	Pool [6]uint8
	// « La star des DJ » (4.8.6): phase 1, two digits under the « disque d'or » symbols
	// and a Gain; phase 2, a sentence that may multiply the Gain.
	Digits   [2]uint8
	DJGain   Cents
	Sentence uint8
}

func (SoireePlay) Game() int { return 7 }

// poolGains is the gain of « La piscine party » by number of « personnage » (4.8.5).
var poolGains = [...]Cents{0, 0, Euros(3), Euros(30), Euros(100), Euros(1000), Euros(15000)}

func (p SoireePlay) outcome(*Game) (outcome, error) {
	o := outcome{mult: 1}
	// 4.8.3: the word VIP wins its amount.
	if err := checkVocab(7, "4.8.3", soireeWords, p.Word); err != nil {
		return outcome{}, err
	}
	if err := checkAmount(7, "4.8.3", p.WordAmount); err != nil {
		return outcome{}, err
	}
	if p.Word == winning {
		o.lot += p.WordAmount
		o.surfaces++
	}
	// 4.8.4: each « verre à cocktail » wins its amount.
	if err := checkVocab(7, "4.8.4", soireeTables, p.Tables[:]...); err != nil {
		return outcome{}, err
	}
	cosy := false
	for i, s := range p.Tables {
		if err := checkAmount(7, "4.8.4", p.TableAmounts[i]); err != nil {
			return outcome{}, err
		}
		if s == winning {
			o.lot += p.TableAmounts[i]
			cosy = true
		}
	}
	if cosy {
		o.surfaces++
	}
	// 4.8.5: two to six « personnage » win 3, 30, 100, 1,000 or 15,000 €.
	if err := checkVocab(7, "4.8.5", soireePool, p.Pool[:]...); err != nil {
		return outcome{}, err
	}
	n := 0
	for _, s := range p.Pool {
		if s == winning {
			n++
		}
	}
	if poolGains[n] > 0 {
		o.lot += poolGains[n]
		o.surfaces++
	}
	// 4.8.6.2: two digits adding up to 7 win the Gain; 4.8.6.3: the sentence multiplies
	// it by 2, 3 or 4.
	if p.Digits[0] > 9 || p.Digits[1] > 9 {
		return outcome{}, playErr(7, "4.8.6.2", "the « disque d'or » symbols show digits, not %d and %d", p.Digits[0], p.Digits[1])
	}
	if err := checkAmount(7, "4.8.6.2", p.DJGain); err != nil {
		return outcome{}, err
	}
	if err := checkVocab(7, "4.8.6.3", djSentences, p.Sentence); err != nil {
		return outcome{}, err
	}
	if p.Digits[0]+p.Digits[1] == 7 {
		o.mult = djSentences[p.Sentence].mult
		o.lot += p.DJGain * Cents(o.mult)
		o.surfaces++
	}
	return o, nil
}

func (p SoireePlay) AppendEncode(dst []byte) []byte {
	dst = appendItem(dst, soireeWords, p.Word, p.WordAmount)
	dst = append(dst, '|')
	for i := range p.Tables {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendItem(dst, soireeTables, p.Tables[i], p.TableAmounts[i])
	}
	dst = append(dst, '|')
	dst = appendSymbols(dst, soireePool, p.Pool[:])
	dst = append(dst, '|', '0'+p.Digits[0], '+', '0'+p.Digits[1], ':')
	dst = appendEuros(dst, p.DJGain)
	dst = append(dst, '|')
	return append(dst, djSentences[p.Sentence].code...)
}

func parseSoiree(s string) (Play, error) {
	var z [5]string
	var items [3]string
	var p SoireePlay
	var err error
	if err = split(s, '|', z[:]); err != nil {
		return nil, err
	}
	if p.Word, p.WordAmount, err = parseItem(z[0], soireeWords); err != nil {
		return nil, err
	}
	if err = split(z[1], ',', items[:]); err != nil {
		return nil, err
	}
	for i := range items {
		if p.Tables[i], p.TableAmounts[i], err = parseItem(items[i], soireeTables); err != nil {
			return nil, err
		}
	}
	if err = parseSymbols(z[2], soireePool, p.Pool[:]); err != nil {
		return nil, err
	}
	dj := z[3]
	if len(dj) < 5 || dj[1] != '+' || dj[3] != ':' || dj[0] < '0' || dj[0] > '9' || dj[2] < '0' || dj[2] > '9' {
		return nil, fmt.Errorf("%w: DJ zone %q, want d+d:euros", errSyntax, dj)
	}
	p.Digits = [2]uint8{dj[0] - '0', dj[2] - '0'}
	if p.DJGain, err = parseEuros(dj[4:]); err != nil {
		return nil, err
	}
	if p.Sentence, err = parseEntry(z[4], djSentences); err != nil {
		return nil, err
	}
	return p, nil
}

func (p SoireePlay) Describe() []string {
	cosy := "Le coin cosy, Grattez ici, ici et là :"
	for i := range p.Tables {
		if i > 0 {
			cosy += " ·"
		}
		cosy += " " + soireeTables.name(p.Tables[i]) + " " + shown(p.TableAmounts[i])
	}
	pool := "La piscine party, Grattez ici :"
	for i, s := range p.Pool {
		if i > 0 {
			pool += " ·"
		}
		pool += " " + soireePool.name(s)
	}
	return []string{
		"L'invitation, Grattez ici : " + soireeWords.name(p.Word) + " — " + shown(p.WordAmount),
		cosy,
		pool,
		"La star des DJ, Grattez ici : disque d'or " + strconv.Itoa(int(p.Digits[0])) + " + disque d'or " +
			strconv.Itoa(int(p.Digits[1])) + " ; Gain : " + shown(p.DJGain),
		"La star des DJ, 2e phase, Grattez ici : « " + djSentences.name(p.Sentence) + " »",
	}
}

// soireeWay is one way to show a lot of 4.8.2 (euros): each field a winning surface,
// zero when that surface loses.
type soireeWay struct {
	vip    int64
	cosy   []int64 // amounts of the « verre à cocktail » symbols
	pool   int     // number of « personnage », 2–6
	dj     int64   // phase-1 Gain when the digits add up to 7
	djMult int
}

// soireeWays: 50,000 € and 50 € only add several surfaces (4.8.2, last paragraph).
var soireeWays = map[int64][]soireeWay{
	3:     {{pool: 2}, {vip: 3}, {cosy: []int64{3}}, {dj: 3, djMult: 1}, {dj: 1, djMult: 3}},
	6:     {{vip: 6}, {dj: 6, djMult: 1}, {dj: 3, djMult: 2}, {dj: 2, djMult: 3}, {cosy: []int64{3, 3}}, {pool: 2, vip: 3}, {pool: 2, cosy: []int64{3}}},
	9:     {{vip: 9}, {dj: 3, djMult: 3}, {pool: 2, cosy: []int64{6}}, {cosy: []int64{3, 6}}},
	12:    {{vip: 12}, {dj: 3, djMult: 4}, {dj: 6, djMult: 2}, {cosy: []int64{6, 6}}, {pool: 2, dj: 3, djMult: 3}},
	30:    {{pool: 3}, {vip: 30}, {cosy: []int64{30}}, {dj: 10, djMult: 3}},
	50:    {{pool: 3, vip: 20}, {pool: 3, dj: 10, djMult: 2}, {vip: 20, cosy: []int64{30}}},
	100:   {{pool: 4}, {vip: 100}},
	1000:  {{pool: 5}, {vip: 1000}, {dj: 250, djMult: 4}},
	50000: {{pool: 6, vip: 15000, dj: 5000, djMult: 4}},
}

// The amounts each surface shows, on winners and losers alike.
var (
	soireeWordAmounts  = []int64{3, 6, 9, 12, 20, 30, 100, 1000, 15000}
	soireeTableAmounts = []int64{3, 6, 30}
	soireeDJGains      = []int64{1, 2, 3, 6, 10, 250, 5000}
)

// generate: losing surfaces are near-misses: another word than VIP, no cocktail glass, a
// single « personnage », digits adding up to 6 or 8.
func (SoireePlay) generate(g *Game, r *rand.Rand, lot Cents) (Play, error) {
	var w soireeWay
	if lot != 0 {
		ways := soireeWays[int64(lot/100)]
		if len(ways) == 0 || lot%100 != 0 {
			return nil, fmt.Errorf("game: generating a play of game 7: no way to show %v", lot)
		}
		w = ways[r.IntN(len(ways))]
	}
	var p SoireePlay
	// L'invitation.
	if w.vip > 0 {
		p.Word, p.WordAmount = winning, Euros(w.vip)
	} else {
		p.Word, p.WordAmount = other(r, soireeWords), anyOf(r, soireeWordAmounts)
	}
	// Le coin cosy: the cocktail glasses first, then shuffled among the tables.
	for i := range p.Tables {
		if i < len(w.cosy) {
			p.Tables[i], p.TableAmounts[i] = winning, Euros(w.cosy[i])
		} else {
			p.Tables[i], p.TableAmounts[i] = other(r, soireeTables), anyOf(r, soireeTableAmounts)
		}
	}
	r.Shuffle(3, func(i, j int) {
		p.Tables[i], p.Tables[j] = p.Tables[j], p.Tables[i]
		p.TableAmounts[i], p.TableAmounts[j] = p.TableAmounts[j], p.TableAmounts[i]
	})
	// La piscine party: a loser shows at most one « personnage ».
	persons := w.pool
	if persons == 0 {
		persons = r.IntN(2)
	}
	for i := range p.Pool {
		if i < persons {
			p.Pool[i] = winning
		} else {
			p.Pool[i] = other(r, soireePool)
		}
	}
	r.Shuffle(6, func(i, j int) { p.Pool[i], p.Pool[j] = p.Pool[j], p.Pool[i] })
	// La star des DJ.
	if w.dj > 0 {
		a := r.IntN(8)
		p.Digits = [2]uint8{uint8(a), uint8(7 - a)}
		p.DJGain = Euros(w.dj)
		p.Sentence = sentenceFor(djSentences, w.djMult, r.IntN)
	} else {
		sum := 6 + 2*r.IntN(2) // 6 or 8: so close
		if r.IntN(4) == 0 {
			sum = r.IntN(16) // anything but 7
			if sum >= 7 {
				sum++
			}
		}
		lo := max(0, sum-9)
		a := lo + r.IntN(min(sum, 9)-lo+1)
		p.Digits = [2]uint8{uint8(a), uint8(sum - a)}
		p.DJGain = anyOf(r, soireeDJGains)
		p.Sentence = uint8(r.IntN(len(djSentences)))
	}
	return p, nil
}
