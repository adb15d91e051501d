package game

import (
	"errors"
	"testing"
)

// s finds an entry of a vocabulary by code.
func s(v vocab, code string) uint8 {
	i, ok := v.lookup(code)
	if !ok {
		panic("no entry " + code)
	}
	return i
}

type ruleCase struct {
	rule string // the sub-article and what it says
	play Play
	lot  Cents
	err  string // the article a *PlayError must name; "" when the play is valid
}

func runRules(t *testing.T, cases []ruleCase) {
	t.Helper()
	d := Reglement()
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			lot, err := d.Evaluate(c.play)
			if c.err != "" {
				var pe *PlayError
				if !errors.As(err, &pe) || pe.Article != c.err {
					t.Fatalf("Evaluate(%s) = %v, %v; want a PlayError citing %s", EncodePlay(c.play), lot, err, c.err)
				}
				return
			}
			if err != nil || lot != c.lot {
				t.Fatalf("Evaluate(%s) = %v, %v; want %v", EncodePlay(c.play), lot, err, c.lot)
			}
			// The compact form reads back to the same play.
			q, err := ParsePlay(c.play.Game(), EncodePlay(c.play))
			if err != nil || q != c.play {
				t.Fatalf("ParsePlay(%s) = %#v, %v", EncodePlay(c.play), q, err)
			}
		})
	}
}

func TestArticle4_2Caviar(t *testing.T) {
	runRules(t, []ruleCase{
		{rule: "4.2.4 an amount of the table wins itself", play: CaviarPlay{Amount: Euros(30)}, lot: Euros(30)},
		{rule: "4.2.4 the top lot of 1000 € wins", play: CaviarPlay{Amount: Euros(1000)}, lot: Euros(1000)},
		{rule: "4.2.4 a mention inviting to play on loses", play: CaviarPlay{Message: 2}, lot: 0},
		{rule: "4.2.3 no sum outside the table", play: CaviarPlay{Amount: Euros(20)}, err: "4.2.3"},
		{rule: "4.2.3 no unknown mention", play: CaviarPlay{Message: 99}, err: "4.2.3"},
	})
}

func TestArticle4_3Jacuzzi(t *testing.T) {
	runRules(t, []ruleCase{
		{rule: "4.3.4 BULLE wins the amount shown with it", play: JacuzziPlay{Word: s(jacuzziWords, "BULLE"), Amount: Euros(2000)}, lot: Euros(2000)},
		{rule: "4.3.4 another word loses", play: JacuzziPlay{Word: s(jacuzziWords, "BALLE"), Amount: Euros(2000)}, lot: 0},
		{rule: "4.3.3 the amount is one of the table even on a loser", play: JacuzziPlay{Word: s(jacuzziWords, "BOULE"), Amount: Euros(3)}, err: "4.3.3"},
		{rule: "4.3.3 BULLE with an amount outside the table", play: JacuzziPlay{Word: winning, Amount: Euros(50)}, err: "4.3.3"},
	})
}

func TestArticle4_4Farniente(t *testing.T) {
	ck, ps := s(farnienteSymbols, "CK"), s(farnienteSymbols, "PS")
	runRules(t, []ruleCase{
		{rule: "4.4.5 two identical symbols win the Gain", play: FarnientePlay{Symbols: [2]uint8{ps, ps}, Gain: Euros(4)}, lot: Euros(4)},
		{rule: "4.4.5 two different symbols lose", play: FarnientePlay{Symbols: [2]uint8{ck, ps}, Gain: Euros(2000)}, lot: 0},
		{rule: "4.4.4 Gain outside the table", play: FarnientePlay{Symbols: [2]uint8{ck, ck}, Gain: Euros(5)}, err: "4.4.4"},
		{rule: "4.4.3 unknown symbol", play: FarnientePlay{Symbols: [2]uint8{ck, 42}, Gain: Euros(1)}, err: "4.4.3"},
	})
}

func TestArticle4_5Shopping(t *testing.T) {
	sm, es := s(shoppingSymbols, "SM"), s(shoppingSymbols, "ES")
	runRules(t, []ruleCase{
		{rule: "4.5.5 three identical symbols win the Gain", play: ShoppingPlay{Symbols: [3]uint8{sm, sm, sm}, Gain: Euros(10_000)}, lot: Euros(10_000)},
		{rule: "4.5.5 two identical of three lose", play: ShoppingPlay{Symbols: [3]uint8{sm, es, sm}, Gain: Euros(10_000)}, lot: 0},
		{rule: "4.5.4 Gain outside the table", play: ShoppingPlay{Symbols: [3]uint8{es, es, es}, Gain: Euros(1)}, err: "4.5.4"},
	})
}

func TestArticle4_6Paparazzi(t *testing.T) {
	ap, mi := s(paparazziSymbols, "AP"), s(paparazziSymbols, "MI")
	x1, x2a, x2b, x3a := s(paparazziSentences, "x1a"), s(paparazziSentences, "x2a"), s(paparazziSentences, "x2b"), s(paparazziSentences, "x3a")
	runRules(t, []ruleCase{
		{rule: "4.6.3.3 two appareil photo win the Gain", play: PaparazziPlay{Symbols: [3]uint8{ap, mi, ap}, Gain: Euros(8), Sentence: x1}, lot: Euros(8)},
		{rule: "4.6.3.3 one appareil photo loses", play: PaparazziPlay{Symbols: [3]uint8{ap, mi, mi}, Gain: Euros(8), Sentence: x3a}, lot: 0},
		{rule: "4.6.3.3 two identical symbols other than appareil photo lose", play: PaparazziPlay{Symbols: [3]uint8{mi, mi, ap}, Gain: Euros(30), Sentence: x1}, lot: 0},
		{rule: "4.6.4 par deux multiplies by 2", play: PaparazziPlay{Symbols: [3]uint8{ap, ap, mi}, Gain: Euros(15), Sentence: x2a}, lot: Euros(30)},
		{rule: "4.6.4 × 2 multiplies by 2", play: PaparazziPlay{Symbols: [3]uint8{ap, ap, mi}, Gain: Euros(2), Sentence: x2b}, lot: Euros(4)},
		{rule: "4.6.4 par trois multiplies by 3", play: PaparazziPlay{Symbols: [3]uint8{mi, ap, ap}, Gain: Euros(5000), Sentence: x3a}, lot: Euros(15_000)},
		{rule: "4.6.2 15000 € only by multiplying", play: PaparazziPlay{Symbols: [3]uint8{ap, ap, mi}, Gain: Euros(15_000), Sentence: x1}, err: "4.6.2"},
		{rule: "4.6.2 a product outside the table", play: PaparazziPlay{Symbols: [3]uint8{ap, ap, mi}, Gain: Euros(8), Sentence: x3a}, err: "4.6.2"},
		{rule: "4.6.4 no other multiplier than 2 and 3", play: PaparazziPlay{Symbols: [3]uint8{ap, ap, mi}, Gain: Euros(2), Sentence: uint8(len(paparazziSentences))}, err: "4.6.4"},
	})
	if _, ok := paparazziSentences.lookup("x4a"); ok {
		t.Error("4.6.4: game 5 must not know a × 4 sentence")
	}
}

func TestArticle4_7Limousine(t *testing.T) {
	tp, ch, ga := s(limousineSymbols, "TP"), s(limousineSymbols, "CH"), s(limousineSymbols, "GA")
	nm, fn, vs, tv, et := s(limousinePlate, "NM"), s(limousinePlate, "FN"), s(limousinePlate, "VS"), s(limousinePlate, "TV"), s(limousinePlate, "ET")
	e := Euros
	runRules(t, []ruleCase{
		{rule: "4.7.3 a tête de personnage wins its amount", play: LimousinePlay{Symbols: [3]uint8{ch, tp, ga}, Amounts: [3]Cents{e(500), e(20), e(50)}, Plate: et}, lot: e(20)},
		{rule: "4.7.3 no tête de personnage, surface 1 loses", play: LimousinePlay{Symbols: [3]uint8{ch, ch, ga}, Amounts: [3]Cents{e(500), e(20), e(50)}, Plate: et}, lot: 0},
		{rule: "4.7.3 two têtes de personnage are not a valid surface", play: LimousinePlay{Symbols: [3]uint8{tp, tp, ga}, Amounts: [3]Cents{e(5), e(5), e(50)}, Plate: et}, err: "4.7.3"},
		{rule: "4.7.4 note de musique wins 2 €", play: LimousinePlay{Symbols: [3]uint8{ch, ga, ga}, Amounts: [3]Cents{e(1), e(2), e(3)}, Plate: nm}, lot: e(2)},
		{rule: "4.7.4 flocon de neige wins 5 €", play: LimousinePlay{Symbols: [3]uint8{ch, ga, ga}, Amounts: [3]Cents{e(1), e(2), e(3)}, Plate: fn}, lot: e(5)},
		{rule: "4.7.4 verre à soda wins 200 €", play: LimousinePlay{Symbols: [3]uint8{ch, ga, ga}, Amounts: [3]Cents{e(1), e(2), e(3)}, Plate: vs}, lot: e(200)},
		{rule: "4.7.4 another plate symbol loses", play: LimousinePlay{Symbols: [3]uint8{ch, ga, ga}, Amounts: [3]Cents{e(1), e(2), e(3)}, Plate: et}, lot: 0},
		{rule: "4.7.2 both surfaces add up", play: LimousinePlay{Symbols: [3]uint8{tp, ga, ga}, Amounts: [3]Cents{e(45), e(2), e(3)}, Plate: fn}, lot: e(50)},
		{rule: "4.7.2 20000 € as surface 1 + téléviseur", play: LimousinePlay{Symbols: [3]uint8{ga, tp, ch}, Amounts: [3]Cents{e(1), e(15_000), e(3)}, Plate: tv}, lot: e(20_000)},
		{rule: "4.7.2 20000 € only by adding both surfaces", play: LimousinePlay{Symbols: [3]uint8{ga, tp, ch}, Amounts: [3]Cents{e(1), e(20_000), e(3)}, Plate: et}, err: "4.7.2"},
		{rule: "4.7.4 téléviseur alone wins 5000 €, not a lot of the table", play: LimousinePlay{Symbols: [3]uint8{ga, ch, ch}, Amounts: [3]Cents{e(1), e(2), e(3)}, Plate: tv}, err: "4.7.2"},
	})
}

func TestArticle4_8Soiree(t *testing.T) {
	e := Euros
	vip, vie := s(soireeWords, "VIP"), s(soireeWords, "VIE")
	vc, bg := s(soireeTables, "VC"), s(soireeTables, "BG")
	pe, bu := s(soireePool, "PE"), s(soireePool, "BU")
	x1, x2, x3, x4 := s(djSentences, "x1a"), s(djSentences, "x2b"), s(djSentences, "x3a"), s(djSentences, "x4b")
	base := func() SoireePlay { // a losing ticket: every surface loses
		return SoireePlay{Word: vie, WordAmount: e(1000), Tables: [3]uint8{bg, bg, bg}, TableAmounts: [3]Cents{e(3), e(6), e(30)},
			Pool: [6]uint8{pe, bu, bu, bu, bu, bu}, Digits: [2]uint8{3, 3}, DJGain: e(10), Sentence: x4}
	}
	with := func(f func(*SoireePlay)) SoireePlay { p := base(); f(&p); return p }
	pool := func(n int) [6]uint8 {
		var a [6]uint8
		for i := range a {
			a[i] = bu
			if i < n {
				a[i] = pe
			}
		}
		return a
	}
	runRules(t, []ruleCase{
		{rule: "4.8 every surface losing, the ticket loses", play: base(), lot: 0},
		{rule: "4.8.3 VIP wins its amount", play: with(func(p *SoireePlay) { p.Word, p.WordAmount = vip, e(100) }), lot: e(100)},
		{rule: "4.8.3 another word loses", play: with(func(p *SoireePlay) { p.Word, p.WordAmount = vie, e(100) }), lot: 0},
		{rule: "4.8.4 a verre à cocktail wins its amount", play: with(func(p *SoireePlay) { p.Tables[1] = vc }), lot: e(6)},
		{rule: "4.8.4 each verre à cocktail wins its amount", play: with(func(p *SoireePlay) { p.Tables = [3]uint8{vc, vc, bg} }), lot: e(9)},
		{rule: "4.8.5 one personnage loses", play: with(func(p *SoireePlay) { p.Pool = pool(1) }), lot: 0},
		{rule: "4.8.5 two personnages win 3 €", play: with(func(p *SoireePlay) { p.Pool = pool(2) }), lot: e(3)},
		{rule: "4.8.5 three personnages win 30 €", play: with(func(p *SoireePlay) { p.Pool = pool(3) }), lot: e(30)},
		{rule: "4.8.5 four personnages win 100 €", play: with(func(p *SoireePlay) { p.Pool = pool(4) }), lot: e(100)},
		{rule: "4.8.5 five personnages win 1000 €", play: with(func(p *SoireePlay) { p.Pool = pool(5) }), lot: e(1000)},
		{rule: "4.8.5 six personnages win 15000 €, not a lot alone", play: with(func(p *SoireePlay) { p.Pool = pool(6) }), err: "4.8.2"},
		{rule: "4.8.6.2 digits adding up to 7 win the Gain", play: with(func(p *SoireePlay) { p.Digits, p.DJGain, p.Sentence = [2]uint8{2, 5}, e(3), x1 }), lot: e(3)},
		{rule: "4.8.6.2 digits adding up to 8 lose", play: with(func(p *SoireePlay) { p.Digits, p.DJGain, p.Sentence = [2]uint8{4, 4}, e(3), x1 }), lot: 0},
		{rule: "4.8.6.3 par deux / × 2", play: with(func(p *SoireePlay) { p.Digits, p.DJGain, p.Sentence = [2]uint8{0, 7}, e(3), x2 }), lot: e(6)},
		{rule: "4.8.6.3 par trois", play: with(func(p *SoireePlay) { p.Digits, p.DJGain, p.Sentence = [2]uint8{7, 0}, e(3), x3 }), lot: e(9)},
		{rule: "4.8.6.3 × 4", play: with(func(p *SoireePlay) { p.Digits, p.DJGain, p.Sentence = [2]uint8{1, 6}, e(3), x4 }), lot: e(12)},
		{rule: "4.8.6.3 the multiplier applies to the DJ only", play: with(func(p *SoireePlay) {
			p.Word, p.WordAmount, p.Digits, p.DJGain, p.Sentence = vip, e(3), [2]uint8{1, 6}, e(1), x3
		}), lot: e(6)},
		{rule: "4.8.6.2 the DJ symbols show digits", play: with(func(p *SoireePlay) { p.Digits = [2]uint8{10, 3} }), err: "4.8.6.2"},
		{rule: "4.8.2 surfaces add up: 50 € as pool + VIP", play: with(func(p *SoireePlay) { p.Pool, p.Word, p.WordAmount = pool(3), vip, e(20) }), lot: e(50)},
		{rule: "4.8.2 50 € only by adding surfaces", play: with(func(p *SoireePlay) { p.Word, p.WordAmount = vip, e(50) }), err: "4.8.2"},
		{rule: "4.8.2 50 € not from two glasses of one surface", play: with(func(p *SoireePlay) {
			p.Tables, p.TableAmounts = [3]uint8{vc, vc, bg}, [3]Cents{e(20), e(30), e(3)}
		}), err: "4.8.2"},
		{rule: "4.8.2 50000 € as pool 6 + VIP 15000 + DJ 5000 × 4", play: with(func(p *SoireePlay) {
			p.Pool, p.Word, p.WordAmount, p.Digits, p.DJGain, p.Sentence = pool(6), vip, e(15_000), [2]uint8{3, 4}, e(5000), x4
		}), lot: e(50_000)},
		{rule: "4.8.2 50000 € only by adding surfaces", play: with(func(p *SoireePlay) { p.Word, p.WordAmount = vip, e(50_000) }), err: "4.8.2"},
	})
}

func TestArticle4_9Yacht(t *testing.T) {
	jet7, jets := s(yachtWords, "JET7"), s(yachtWords, "JETS")
	runRules(t, []ruleCase{
		{rule: "4.9.4 JET7 wins the amount shown with it", play: YachtPlay{Word: jet7, Amount: Euros(50)}, lot: Euros(50)},
		{rule: "4.9.4 another word loses", play: YachtPlay{Word: jets, Amount: Euros(100)}, lot: 0},
		{rule: "4.9.3 a word may come without an amount", play: YachtPlay{Word: jets}, lot: 0},
		{rule: "4.9.3 no amount outside the table", play: YachtPlay{Word: jets, Amount: Euros(20)}, err: "4.9.3"},
		{rule: "4.9.4 JET7 shows the amount it wins", play: YachtPlay{Word: jet7}, err: "4.9.4"},
	})
}

func TestEvaluateUnknownGame(t *testing.T) {
	d := Reglement().Clone()
	d.Games = d.Games[:4]
	if _, err := d.Evaluate(YachtPlay{Word: winning, Amount: Euros(1)}); !errors.Is(err, ErrNoSuchGame) {
		t.Fatalf("game 8 on a 4-game definition: %v", err)
	}
	if _, err := Reglement().Evaluate(nil); err == nil {
		t.Fatal("nil play accepted")
	}
}
