package codes

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// TestDammQuasigroup checks over the whole decimal alphabet that the table is a Latin square
// with a zero diagonal and weakly totally anti-symmetric: the two properties that make every
// single-digit error and every adjacent transposition change the final interim.
func TestDammQuasigroup(t *testing.T) {
	for c := range byte(10) {
		var row, col [10]bool
		for x := range byte(10) {
			row[dammTable[c][x]] = true
			col[dammTable[x][c]] = true
		}
		for v := range 10 {
			if !row[v] || !col[v] {
				t.Fatalf("not a Latin square at %d", c)
			}
		}
		if dammTable[c][c] != 0 {
			t.Fatalf("diagonal %d is %d", c, dammTable[c][c])
		}
		for x := range byte(10) {
			for y := range byte(10) {
				if x != y && dammTable[dammTable[c][x]][y] == dammTable[dammTable[c][y]][x] {
					t.Fatalf("transposition %d%d after interim %d undetected", x, y, c)
				}
			}
		}
	}
}

// TestGF32Quasigroup is the same proof for the base-32 check character.
func TestGF32Quasigroup(t *testing.T) {
	for c := range byte(32) {
		var row, col [32]bool
		for x := range byte(32) {
			row[op32(c, x)] = true
			col[op32(x, c)] = true
		}
		for v := range 32 {
			if !row[v] || !col[v] {
				t.Fatalf("not a Latin square at %d", c)
			}
		}
		for x := range byte(32) {
			for y := range byte(32) {
				if x != y && op32(op32(c, x), y) == op32(op32(c, y), x) {
					t.Fatalf("transposition %d,%d after interim %d undetected", x, y, c)
				}
			}
		}
	}
}

// errorsOf calls f with every single-character substitution (over alphabet) and every
// adjacent transposition of distinct characters of text.
func errorsOf(text, alphabet string, f func(kind, mutated string)) {
	b := []byte(text)
	for i := range b {
		orig := b[i]
		for j := range len(alphabet) {
			if alphabet[j] == orig {
				continue
			}
			b[i] = alphabet[j]
			f("substitution", string(b))
		}
		b[i] = orig
	}
	for i := 0; i+1 < len(b); i++ {
		if b[i] == b[i+1] {
			continue
		}
		b[i], b[i+1] = b[i+1], b[i]
		f("transposition", string(b))
		b[i], b[i+1] = b[i+1], b[i]
	}
}

// TestEveryErrorDetected applies every single-character error and every adjacent
// transposition to many codes of each kind, over the whole alphabet and every position
// (including the check character), and requires a bad-check-character rejection.
func TestEveryErrorDetected(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 300
	if testing.Short() {
		n = 40
	}
	for range n {
		id := randomID(rng)
		var secret [SecretSize]byte
		for i := range secret {
			secret[i] = byte(rng.Uint32())
		}
		cases := []struct {
			text     string
			alphabet string
			parse    func(string) error
		}{
			{PackCode{id.Block, id.Pack}.String(), "0123456789", func(s string) error { _, err := ParsePack(s); return err }},
			{TicketCodeOf(id).String(), "0123456789", func(s string) error { _, err := ParseTicket(s); return err }},
			{ValidationCodeOf(id, secret).String(), crockford, func(s string) error { _, err := ParseValidation(s); return err }},
		}
		for _, c := range cases {
			if err := c.parse(c.text); err != nil {
				t.Fatalf("%s: %v", c.text, err)
			}
			errorsOf(c.text, c.alphabet, func(kind, m string) {
				if err := c.parse(m); !errors.Is(err, ErrCheck) {
					t.Fatalf("%s %s → %s: got %v, want ErrCheck", kind, c.text, m, err)
				}
			})
		}
	}
}

func randomID(rng *rand.Rand) TicketID {
	return TicketID{
		Block:    uint16(MinBlock + rng.IntN(MaxBlock-MinBlock+1)),
		Pack:     uint32(rng.IntN(PacksPerBlock)),
		Position: uint8(1 + rng.IntN(TicketsPerPack)),
	}
}
