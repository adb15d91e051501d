package codes

// TicketCode identifies a ticket without revealing anything about its prize: it is printed
// as Interleaved 2 of 5 on the ticket's back. Text: 14 digits G BBBB PPPPPPP K C (game or
// emission, block, 0-based pack, position, Damm check digit). Game k sits at position k
// (règlement 4.1); both are kept so that a misprinted sheet is caught.
type TicketCode struct {
	Game     uint8
	Block    uint16
	Pack     uint32
	Position uint8
}

// TicketLen is the length of a ticket code's text (even, as ITF requires).
const TicketLen = 14

func (TicketCode) Kind() Kind { return KindTicket }

// TicketCodeOf returns the ticket code of a ticket identity.
func TicketCodeOf(id TicketID) TicketCode {
	return TicketCode{Game: id.Position, Block: id.Block, Pack: id.Pack, Position: id.Position}
}

// ID returns the ticket's identity.
func (c TicketCode) ID() TicketID {
	return TicketID{Block: c.Block, Pack: c.Pack, Position: c.Position}
}

// Validate reports whether the fields are in range and consistent.
func (c TicketCode) Validate() error {
	if err := checkBlockPack(KindTicket, c.Block, c.Pack); err != nil {
		return err
	}
	if c.Game < 1 || c.Game > TicketsPerPack {
		return fail(KindTicket, ErrRange, "game %d not in 1..%d", c.Game, TicketsPerPack)
	}
	if c.Position < 1 || c.Position > TicketsPerPack {
		return fail(KindTicket, ErrRange, "position %d not in 1..%d", c.Position, TicketsPerPack)
	}
	if c.Game != c.Position {
		return fail(KindTicket, ErrInconsistent, "game %d at position %d (game k sits at position k)", c.Game, c.Position)
	}
	return nil
}

// AppendText appends the 14 digits a scanner delivers (encoding.TextAppender).
func (c TicketCode) AppendText(b []byte) ([]byte, error) {
	if err := c.Validate(); err != nil {
		return b, err
	}
	n := len(b)
	b = append(b, '0'+c.Game)
	b = appendDigits(b, uint32(c.Block), 4)
	b = appendDigits(b, c.Pack, 7)
	b = append(b, '0'+c.Position)
	var d [TicketLen - 1]byte
	for i := range d {
		d[i] = b[n+i] - '0'
	}
	return append(b, '0'+dammDigit(d[:])), nil
}

// MarshalText implements encoding.TextMarshaler.
func (c TicketCode) MarshalText() ([]byte, error) { return c.AppendText(make([]byte, 0, TicketLen)) }

// String returns the code text, or "invalid ticket code" when a field is out of range.
func (c TicketCode) String() string {
	b, err := c.AppendText(make([]byte, 0, TicketLen))
	if err != nil {
		return "invalid ticket code"
	}
	return string(b)
}

// HumanReadable returns the text printed under the bars: "G BBBB PPPPPPP K C".
func (c TicketCode) HumanReadable() string { return group(c.String(), 1, 5, 12, 13) }

// UnmarshalText implements encoding.TextUnmarshaler with ParseTicket's rules.
func (c *TicketCode) UnmarshalText(text []byte) error {
	v, err := ParseTicket(string(text))
	if err == nil {
		*c = v
	}
	return err
}

func parseTicketBody(s []byte) (TicketCode, error) {
	if len(s) != TicketLen {
		return TicketCode{}, fail(KindTicket, ErrLength, "%d characters, want %d digits", len(s), TicketLen)
	}
	var d [TicketLen]byte
	if err := decimal(KindTicket, s, d[:]); err != nil {
		return TicketCode{}, err
	}
	if dammDigit(d[:]) != 0 {
		return TicketCode{}, fail(KindTicket, ErrCheck, "Damm check digit does not match")
	}
	c := TicketCode{Game: d[0], Block: uint16(digitsValue(d[1:5])), Pack: digitsValue(d[5:12]), Position: d[12]}
	if err := c.Validate(); err != nil {
		return TicketCode{}, err
	}
	return c, nil
}
