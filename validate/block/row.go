package block

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/packterm/pos/validate/game"
)

// A Row is one line of the printer's file, its fields as text except the numbers.
type Row struct {
	Pack       uint32
	Position   uint8
	Game       uint8
	Prize      game.Cents
	Validation string
	PackCode   string
	TicketCode string
	Play       string
}

var errRow = errors.New("block: malformed row")

// ParseRow reads one line of the printer's file (without its newline). It checks the
// shape (eight fields, numbers, the quoted play); ParseRow's caller checks the meaning.
func ParseRow(line string) (Row, error) {
	var r Row
	var f [7]string
	rest := line
	for i := range f {
		j := strings.IndexByte(rest, ',')
		if j < 0 {
			return r, fmt.Errorf("%w: %d fields, want 8", errRow, i+1)
		}
		f[i], rest = rest[:j], rest[j+1:]
	}
	if len(rest) < 2 || rest[0] != '"' || rest[len(rest)-1] != '"' || strings.IndexByte(rest[1:len(rest)-1], '"') >= 0 {
		return r, fmt.Errorf("%w: the play must be one quoted field", errRow)
	}
	r.Play = rest[1 : len(rest)-1]
	num := func(name, s string, bits int) (uint64, error) {
		if len(s) == 0 || len(s) > 12 || (len(s) > 1 && s[0] == '0') {
			return 0, fmt.Errorf("%w: %s %q", errRow, name, s)
		}
		v, err := strconv.ParseUint(s, 10, bits)
		if err != nil {
			return 0, fmt.Errorf("%w: %s %q", errRow, name, s)
		}
		return v, nil
	}
	v, err := num("pack", f[0], 32)
	if err != nil {
		return r, err
	}
	r.Pack = uint32(v)
	if v, err = num("ticket", f[1], 8); err != nil {
		return r, err
	}
	r.Position = uint8(v)
	if v, err = num("game", f[2], 8); err != nil {
		return r, err
	}
	r.Game = uint8(v)
	if v, err = num("prize_cents", f[3], 40); err != nil {
		return r, err
	}
	r.Prize = game.Cents(v)
	r.Validation, r.PackCode, r.TicketCode = f[4], f[5], f[6]
	return r, nil
}
