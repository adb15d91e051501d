package game

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
)

// A Play is what is printed under the scratch zones of one ticket. Each game of article 4
// has its own play type (CaviarPlay … YachtPlay); the zero value of none is meaningful.
type Play interface {
	// Game is the game number (1–8), which is also the ticket's position in the pack.
	Game() int
	// AppendEncode appends the play's compact form, the `play` column of the printer's
	// file; ParsePlay reads it back.
	AppendEncode(dst []byte) []byte
	// Describe gives the play as a person reads it on the scratched ticket: one line per
	// zone, in French.
	Describe() []string

	// outcome applies the game's rules; it reports a PlayError when the play shows
	// something its article does not allow.
	outcome(g *Game) (outcome, error)
	// wins names the winning zones or surfaces of a valid play (Definition.Wins).
	wins() []Win
	generate(g *Game, r *rand.Rand, lot Cents) (Play, error)
}

// outcome is the result of a game's rules on a play.
type outcome struct {
	lot      Cents
	surfaces int // winning surfaces (or zones) that add up to lot
	mult     int // the phase-2 multiplier applied to lot, 1 when none
}

func win(lot Cents) outcome { return outcome{lot: lot, surfaces: 1, mult: 1} }

// PlayError says which rule of the règlement a play breaks.
type PlayError struct {
	Game    int
	Article string // the sub-article, e.g. "4.4.4"
	Reason  string
}

func (e *PlayError) Error() string {
	return fmt.Sprintf("game: invalid play of game %d: article %s: %s", e.Game, e.Article, e.Reason)
}

func playErr(game int, article, format string, args ...any) error {
	return &PlayError{Game: game, Article: article, Reason: fmt.Sprintf(format, args...)}
}

// ErrNoSuchGame is returned for a game number outside the definition.
var ErrNoSuchGame = errors.New("game: no such game")

// plays holds a zero value of each game's play type, by game number.
var plays = [...]Play{1: CaviarPlay{}, 2: JacuzziPlay{}, 3: FarnientePlay{}, 4: ShoppingPlay{},
	5: PaparazziPlay{}, 6: LimousinePlay{}, 7: SoireePlay{}, 8: YachtPlay{}}

func (d *Definition) gameOf(n int) (*Game, error) {
	g := d.Game(n)
	if g == nil || n >= len(plays) {
		return nil, fmt.Errorf("%w: %d", ErrNoSuchGame, n)
	}
	return g, nil
}

// Evaluate gives the lot a play wins by the rules of its game's article (0 for a losing
// play). It fails with a *PlayError when the play could not be printed under the
// règlement: an amount its zone may not show, a lot outside the game's table, or an
// "only by" lot (4.6.2, 4.7.2, 4.8.2) reached the wrong way.
func (d *Definition) Evaluate(p Play) (Cents, error) {
	if p == nil {
		return 0, errors.New("game: evaluate: no play")
	}
	g, err := d.gameOf(p.Game())
	if err != nil {
		return 0, err
	}
	o, err := p.outcome(g)
	if err != nil {
		return 0, err
	}
	if o.lot == 0 {
		return 0, nil
	}
	art := g.Article + ".2"
	if !g.HasLot(o.lot) {
		return 0, playErr(g.Number, art, "the play wins %v, which is not a lot of the game's table", o.lot)
	}
	if slices.Contains(g.MultiplicationOnly, o.lot) && o.mult < 2 {
		return 0, playErr(g.Number, art, "the lot of %v is only reachable by multiplying the phase-1 gain", o.lot)
	}
	if slices.Contains(g.CumulationOnly, o.lot) && o.surfaces < 2 {
		return 0, playErr(g.Number, art, "the lot of %v is only reachable by adding several winning surfaces", o.lot)
	}
	return o.lot, nil
}

// Generate draws a play of game n that evaluates to exactly lot (0 for a losing play).
// Winning plays reach "only by" lots only the way the règlement allows; losing plays look
// like near-misses. All randomness comes from r, so a seeded r reproduces the play.
func (d *Definition) Generate(r *rand.Rand, n int, lot Cents) (Play, error) {
	g, err := d.gameOf(n)
	if err != nil {
		return nil, err
	}
	if lot != 0 && !g.HasLot(lot) {
		return nil, fmt.Errorf("game: generating a play of game %d: %v is not a lot of its table", n, lot)
	}
	return plays[n].generate(g, r, lot)
}

// ParsePlay reads the compact form of a play of game n (as AppendEncode writes it). It
// checks the syntax and the vocabulary; the rules are Evaluate's.
func ParsePlay(n int, s string) (Play, error) {
	if n < 1 || n >= len(plays) {
		return nil, fmt.Errorf("%w: %d", ErrNoSuchGame, n)
	}
	if len(s) > maxPlayLen {
		return nil, fmt.Errorf("game: parsing play of game %d: %d bytes, at most %d", n, len(s), maxPlayLen)
	}
	p, err := parsers[n](s)
	if err != nil {
		return nil, fmt.Errorf("game: parsing play of game %d: %w", n, err)
	}
	return p, nil
}

// EncodePlay returns the compact form of p.
func EncodePlay(p Play) string { return string(p.AppendEncode(nil)) }

const maxPlayLen = 256

var parsers = [...]func(string) (Play, error){1: parseCaviar, 2: parseJacuzzi, 3: parseFarniente,
	4: parseShopping, 5: parsePaparazzi, 6: parseLimousine, 7: parseSoiree, 8: parseYacht}
