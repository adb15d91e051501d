package codes

// PackCode identifies a pack: it is printed as Code 128 on the sleeve and scanned to sell
// the pack. Text: 12 digits BBBB PPPPPPP C (block, 0-based pack number, Damm check digit).
type PackCode struct {
	Block uint16
	Pack  uint32
}

// PackLen is the length of a pack code's text.
const PackLen = 12

func (PackCode) Kind() Kind { return KindPack }

// Validate reports whether the fields are in range.
func (c PackCode) Validate() error { return checkBlockPack(KindPack, c.Block, c.Pack) }

// AppendText appends the 12 digits a scanner delivers (encoding.TextAppender).
func (c PackCode) AppendText(b []byte) ([]byte, error) {
	if err := c.Validate(); err != nil {
		return b, err
	}
	n := len(b)
	b = appendDigits(b, uint32(c.Block), 4)
	b = appendDigits(b, c.Pack, 7)
	var d [PackLen - 1]byte
	for i := range d {
		d[i] = b[n+i] - '0'
	}
	return append(b, '0'+dammDigit(d[:])), nil
}

// MarshalText implements encoding.TextMarshaler.
func (c PackCode) MarshalText() ([]byte, error) { return c.AppendText(make([]byte, 0, PackLen)) }

// String returns the code text, or "invalid pack code" when a field is out of range.
func (c PackCode) String() string {
	b, err := c.AppendText(make([]byte, 0, PackLen))
	if err != nil {
		return "invalid pack code"
	}
	return string(b)
}

// HumanReadable returns the text printed under the bars: "BBBB PPPPPPP C".
func (c PackCode) HumanReadable() string { return group(c.String(), 4, 11) }

// UnmarshalText implements encoding.TextUnmarshaler with ParsePack's rules.
func (c *PackCode) UnmarshalText(text []byte) error {
	v, err := ParsePack(string(text))
	if err == nil {
		*c = v
	}
	return err
}

func parsePackBody(s []byte) (PackCode, error) {
	if len(s) != PackLen {
		return PackCode{}, fail(KindPack, ErrLength, "%d characters, want %d digits", len(s), PackLen)
	}
	var d [PackLen]byte
	if err := decimal(KindPack, s, d[:]); err != nil {
		return PackCode{}, err
	}
	if dammDigit(d[:]) != 0 {
		return PackCode{}, fail(KindPack, ErrCheck, "Damm check digit does not match")
	}
	c := PackCode{Block: uint16(digitsValue(d[0:4])), Pack: digitsValue(d[4:11])}
	if err := c.Validate(); err != nil {
		return PackCode{}, err
	}
	return c, nil
}

// decimal converts ASCII digits to values, or says which position holds a non-digit.
func decimal(k Kind, s, d []byte) error {
	for i, ch := range s {
		if ch < '0' || ch > '9' {
			return fail(k, ErrCharacter, "%q at position %d, want a digit", rune(ch), i+1)
		}
		d[i] = ch - '0'
	}
	return nil
}

// group inserts spaces after the given prefix lengths of s.
func group(s string, cuts ...int) string {
	b := make([]byte, 0, len(s)+len(cuts))
	last := 0
	for _, c := range cuts {
		if c > len(s) {
			break
		}
		b = append(b, s[last:c]...)
		b = append(b, ' ')
		last = c
	}
	return string(append(b, s[last:]...))
}
