package game

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// The compact play form: zones separated by '|', items of a zone by ',', an item's
// symbol or word and its amount by ':'. Amounts are whole euros, written without
// leading zeros.

var errSyntax = errors.New("malformed play")

// split cuts s at sep into exactly len(out) parts.
func split(s string, sep byte, out []string) error {
	for i := range out {
		if i == len(out)-1 {
			if strings.IndexByte(s, sep) >= 0 {
				return fmt.Errorf("%w: more than %d parts separated by %q", errSyntax, len(out), sep)
			}
			out[i] = s
			return nil
		}
		j := strings.IndexByte(s, sep)
		if j < 0 {
			return fmt.Errorf("%w: %d parts separated by %q expected", errSyntax, len(out), sep)
		}
		out[i], s = s[:j], s[j+1:]
	}
	return nil
}

// parseEuros reads a positive whole number of euros.
func parseEuros(s string) (Cents, error) {
	if len(s) == 0 || len(s) > 7 || s[0] == '0' {
		return 0, fmt.Errorf("%w: amount %q", errSyntax, s)
	}
	var e int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%w: amount %q", errSyntax, s)
		}
		e = e*10 + int64(c-'0')
	}
	return Euros(e), nil
}

func appendEuros(dst []byte, c Cents) []byte { return strconv.AppendInt(dst, int64(c/100), 10) }

func parseEntry(s string, v vocab) (uint8, error) {
	i, ok := v.lookup(s)
	if !ok {
		return 0, fmt.Errorf("%w: unknown symbol or word %q", errSyntax, s)
	}
	return i, nil
}

// parseItem reads "CODE:euros".
func parseItem(s string, v vocab) (uint8, Cents, error) {
	var p [2]string
	if err := split(s, ':', p[:]); err != nil {
		return 0, 0, err
	}
	i, err := parseEntry(p[0], v)
	if err != nil {
		return 0, 0, err
	}
	a, err := parseEuros(p[1])
	return i, a, err
}

func appendItem(dst []byte, v vocab, i uint8, a Cents) []byte {
	dst = append(dst, v[i].code...)
	dst = append(dst, ':')
	return appendEuros(dst, a)
}

// parseSymbols reads a ','-separated list of exactly len(out) codes of v.
func parseSymbols(s string, v vocab, out []uint8) error {
	var parts [6]string
	if err := split(s, ',', parts[:len(out)]); err != nil {
		return err
	}
	for i := range out {
		var err error
		if out[i], err = parseEntry(parts[i], v); err != nil {
			return err
		}
	}
	return nil
}

func appendSymbols(dst []byte, v vocab, syms []uint8) []byte {
	for i, s := range syms {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, v[s].code...)
	}
	return dst
}

// valid reports whether i indexes v (plays built in code may hold anything).
func (v vocab) valid(i uint8) bool { return int(i) < len(v) }

func (v vocab) name(i uint8) string {
	if !v.valid(i) {
		return "?"
	}
	return v[i].name
}

// shown is an amount as printed: figures and letters.
func shown(a Cents) string { return a.String() + " (" + a.InLetters() + ")" }

// Random helpers for generators.

// other draws an entry of v other than the winning one.
func other(r *rand.Rand, v vocab) uint8 { return uint8(1 + r.IntN(len(v)-1)) }

// anyOf draws an amount from the list (euros).
func anyOf(r *rand.Rand, euros []int64) Cents { return Euros(euros[r.IntN(len(euros))]) }

// tierAmount draws an amount of g's table.
func tierAmount(r *rand.Rand, g *Game) Cents { return g.Tiers[r.IntN(len(g.Tiers))].Amount }

// checkAmount rejects amounts that cannot be printed.
func checkAmount(game int, art string, a Cents) error {
	if a <= 0 || a > Euros(maxEuros) || a%100 != 0 {
		return playErr(game, art, "%v cannot be shown", a)
	}
	return nil
}

// checkVocab rejects indexes outside a zone's vocabulary.
func checkVocab(game int, art string, v vocab, syms ...uint8) error {
	for _, s := range syms {
		if !v.valid(s) {
			return playErr(game, art, "symbol %d is not one this zone shows", s)
		}
	}
	return nil
}
