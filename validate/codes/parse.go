package codes

import "errors"

// maxText bounds the significant characters kept from a text; anything longer is no code.
const maxText = 32

// scanned is a text with its framing removed: the significant characters (dashes, spaces
// and tabs removed).
type scanned struct {
	n   int
	buf [maxText]byte
}

// normalize strips trailing CR/LF and blanks and manual-entry separators. Symbologies and
// AIM identifiers are not this package's business: the terminal's code mapping
// (device/codemap) decides the kind from them and calls the typed parsers.
func normalize(text string, s *scanned) error {
	for len(text) > 0 {
		switch text[len(text)-1] {
		case '\r', '\n', ' ', '\t':
			text = text[:len(text)-1]
			continue
		}
		break
	}
	for len(text) > 0 && (text[0] == ' ' || text[0] == '\t') {
		text = text[1:]
	}
	for i := 0; i < len(text); i++ {
		switch ch := text[i]; ch {
		case '-', ' ', '\t':
		default:
			if s.n == maxText {
				return fail(KindUnknown, ErrUnknownKind, "more than %d characters", maxText)
			}
			s.buf[s.n] = ch
			s.n++
		}
	}
	if s.n == 0 {
		return fail(KindUnknown, ErrEmpty, "no characters")
	}
	return nil
}

// kindByLength tells the kind from the number of significant characters.
func kindByLength(n int) Kind {
	switch n {
	case PackLen:
		return KindPack
	case TicketLen:
		return KindTicket
	case ValidationLen:
		return KindValidation
	}
	return KindUnknown
}

// prepare normalizes text meant to be of kind want (KindUnknown: any) and decides its kind:
// want, or else the number of significant characters.
func prepare(text string, want Kind, s *scanned) (Kind, error) {
	if err := normalize(text, s); err != nil {
		if want != KindUnknown {
			var e *Error
			if errors.As(err, &e) && e.Kind == KindUnknown {
				e.Kind = want
			}
		}
		return KindUnknown, err
	}
	if want != KindUnknown {
		return want, nil
	}
	k := kindByLength(s.n)
	if k == KindUnknown {
		return KindUnknown, fail(KindUnknown, ErrUnknownKind,
			"%d characters: a pack code has %d digits, a ticket code %d, a validation code %d characters",
			s.n, PackLen, TicketLen, ValidationLen)
	}
	return k, nil
}

// ParsePack parses a pack code from scanner text or manual entry.
func ParsePack(text string) (PackCode, error) {
	var s scanned
	if _, err := prepare(text, KindPack, &s); err != nil {
		return PackCode{}, err
	}
	return parsePackBody(s.buf[:s.n])
}

// ParseTicket parses a ticket code from scanner text or manual entry.
func ParseTicket(text string) (TicketCode, error) {
	var s scanned
	if _, err := prepare(text, KindTicket, &s); err != nil {
		return TicketCode{}, err
	}
	return parseTicketBody(s.buf[:s.n])
}

// ParseValidation parses a validation code from scanner text or manual entry (any case,
// with or without dashes and spaces, Crockford aliases I/L for 1 and O for 0).
func ParseValidation(text string) (ValidationCode, error) {
	var s scanned
	if _, err := prepare(text, KindValidation, &s); err != nil {
		return ValidationCode{}, err
	}
	return parseValidationBody(s.buf[:s.n])
}

// Parse tells which code text holds and parses it. The kind comes from the length (12 digits
// pack, 14 ticket, 25 validation); a symbology, when known, decides it instead (device/codemap
// then calls the typed parser).
// On error the kind is the one the text was taken for (KindUnknown if none).
func Parse(text string) (Kind, Code, error) {
	var s scanned
	k, err := prepare(text, KindUnknown, &s)
	if err != nil {
		return KindUnknown, nil, err
	}
	body := s.buf[:s.n]
	switch k {
	case KindPack:
		c, err := parsePackBody(body)
		if err != nil {
			return k, nil, err
		}
		return k, c, nil
	case KindTicket:
		c, err := parseTicketBody(body)
		if err != nil {
			return k, nil, err
		}
		return k, c, nil
	default:
		c, err := parseValidationBody(body)
		if err != nil {
			return k, nil, err
		}
		return k, c, nil
	}
}
