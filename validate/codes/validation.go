package codes

// ValidationCode is hidden under the scratch latex: the ticket identity plus a random secret
// of 80 bits, printed as a QR code with a grouped manual-entry form beside it. Only this code
// can reveal or claim a prize; the ledger derives the ticket's key from Secret.
//
// Text: 25 characters of Crockford base 32 (0-9 A-Z without I L O U): 24 data characters
// holding 120 bits, most significant first —
//
//	version (2 bits, 0) | block (14) | pack (21) | position−1 (3) | secret (80)
//
// — then one check character (quasigroup over GF(32), see check.go). The manual form groups
// the 25 characters by five: XXXXX-XXXXX-XXXXX-XXXXX-XXXXX.
type ValidationCode struct {
	Block    uint16
	Pack     uint32
	Position uint8
	Secret   [SecretSize]byte
}

const (
	// ValidationLen is the length of a validation code's text.
	ValidationLen = 25
	// ValidationManualLen is the length of the grouped manual-entry form.
	ValidationManualLen = ValidationLen + 4
	// FormatVersion is the only validation code format version this package knows.
	FormatVersion = 0
)

// crockford is the Crockford base-32 alphabet: no I, L, O, U, so that no two symbols look alike.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// b32Value maps a byte to its base-32 value, or 0xFF. Lower case is accepted, and so are
// Crockford's aliases I, L → 1 and O → 0 (what a person misreads when typing).
var b32Value = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xFF
	}
	for v := range len(crockford) {
		c := crockford[v]
		t[c] = byte(v)
		if c >= 'A' && c <= 'Z' {
			t[c+'a'-'A'] = byte(v)
		}
	}
	t['I'], t['i'], t['L'], t['l'] = 1, 1, 1, 1
	t['O'], t['o'] = 0, 0
	return
}()

func (ValidationCode) Kind() Kind { return KindValidation }

// ValidationCodeOf returns the validation code of a ticket with the given secret.
func ValidationCodeOf(id TicketID, secret [SecretSize]byte) ValidationCode {
	return ValidationCode{Block: id.Block, Pack: id.Pack, Position: id.Position, Secret: secret}
}

// ID returns the ticket's identity.
func (c ValidationCode) ID() TicketID {
	return TicketID{Block: c.Block, Pack: c.Pack, Position: c.Position}
}

// TicketCode returns the ticket code printed on the same ticket's back.
func (c ValidationCode) TicketCode() TicketCode { return TicketCodeOf(c.ID()) }

// Validate reports whether the identity fields are in range (any secret is valid).
func (c ValidationCode) Validate() error {
	if err := checkBlockPack(KindValidation, c.Block, c.Pack); err != nil {
		return err
	}
	if c.Position < 1 || c.Position > TicketsPerPack {
		return fail(KindValidation, ErrRange, "position %d not in 1..%d", c.Position, TicketsPerPack)
	}
	return nil
}

// symbols returns the 25 base-32 values of the code (24 data + check).
func (c ValidationCode) symbols() (v [ValidationLen]byte) {
	g := [3]uint64{
		uint64(FormatVersion)<<38 | uint64(c.Block)<<24 | uint64(c.Pack)<<3 | uint64(c.Position-1),
		be40(c.Secret[0:5]),
		be40(c.Secret[5:10]),
	}
	for i, x := range g {
		for j := range 8 {
			v[i*8+j] = byte(x>>(35-5*j)) & 31
		}
	}
	v[ValidationLen-1] = check32(v[:ValidationLen-1])
	return v
}

func be40(b []byte) uint64 {
	return uint64(b[0])<<32 | uint64(b[1])<<24 | uint64(b[2])<<16 | uint64(b[3])<<8 | uint64(b[4])
}

func putBE40(b []byte, x uint64) {
	b[0], b[1], b[2], b[3], b[4] = byte(x>>32), byte(x>>24), byte(x>>16), byte(x>>8), byte(x)
}

// AppendText appends the 25 characters the QR code holds and a scanner delivers.
func (c ValidationCode) AppendText(b []byte) ([]byte, error) {
	if err := c.Validate(); err != nil {
		return b, err
	}
	for _, x := range c.symbols() {
		b = append(b, crockford[x])
	}
	return b, nil
}

// AppendManual appends the grouped manual-entry form XXXXX-XXXXX-XXXXX-XXXXX-XXXXX.
func (c ValidationCode) AppendManual(b []byte) ([]byte, error) {
	if err := c.Validate(); err != nil {
		return b, err
	}
	for i, x := range c.symbols() {
		if i > 0 && i%5 == 0 {
			b = append(b, '-')
		}
		b = append(b, crockford[x])
	}
	return b, nil
}

// MarshalText implements encoding.TextMarshaler.
func (c ValidationCode) MarshalText() ([]byte, error) {
	return c.AppendText(make([]byte, 0, ValidationLen))
}

// String returns the code text, or "invalid validation code" when a field is out of range.
// Mind that the text is a bearer secret: never log it whole.
func (c ValidationCode) String() string {
	b, err := c.AppendText(make([]byte, 0, ValidationLen))
	if err != nil {
		return "invalid validation code"
	}
	return string(b)
}

// Manual returns the grouped manual-entry form, or "invalid validation code".
func (c ValidationCode) Manual() string {
	b, err := c.AppendManual(make([]byte, 0, ValidationManualLen))
	if err != nil {
		return "invalid validation code"
	}
	return string(b)
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseValidation's rules.
func (c *ValidationCode) UnmarshalText(text []byte) error {
	v, err := ParseValidation(string(text))
	if err == nil {
		*c = v
	}
	return err
}

func parseValidationBody(s []byte) (ValidationCode, error) {
	if len(s) != ValidationLen {
		return ValidationCode{}, fail(KindValidation, ErrLength, "%d characters, want %d", len(s), ValidationLen)
	}
	var v [ValidationLen]byte
	var c byte
	for i, ch := range s {
		x := b32Value[ch]
		if x == 0xFF {
			return ValidationCode{}, fail(KindValidation, ErrCharacter,
				"%q at position %d, want 0-9 or a letter other than U", rune(ch), i+1)
		}
		v[i] = x
		c = op32(c, x)
	}
	if c != 0 {
		return ValidationCode{}, fail(KindValidation, ErrCheck, "check character does not match")
	}
	var g [3]uint64
	for i := range g {
		for j := range 8 {
			g[i] = g[i]<<5 | uint64(v[i*8+j])
		}
	}
	if ver := g[0] >> 38; ver != FormatVersion {
		return ValidationCode{}, fail(KindValidation, ErrVersion, "version %d, this terminal knows %d", ver, FormatVersion)
	}
	code := ValidationCode{
		Block:    uint16(g[0]>>24) & 0x3FFF,
		Pack:     uint32(g[0]>>3) & 0x1FFFFF,
		Position: uint8(g[0]&7) + 1,
	}
	putBE40(code.Secret[0:5], g[1])
	putBE40(code.Secret[5:10], g[2])
	if err := checkBlockPack(KindValidation, code.Block, code.Pack); err != nil {
		return ValidationCode{}, err
	}
	return code, nil
}
