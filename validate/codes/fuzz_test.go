package codes

import (
	"errors"
	"testing"
)

var sentinels = []error{ErrEmpty, ErrLength, ErrCharacter, ErrCheck, ErrRange, ErrInconsistent,
	ErrVersion, ErrUnknownKind, ErrSymbology}

// FuzzParse: any text either parses to a code whose formatted text parses back to the same
// code, or is rejected with an *Error that wraps one of the sentinels; never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"004201234560", "]C0004201234560\r\n", "0042 0123456 0", "30042012345631",
		"]I130042012345631\n", "00N0Y4G2VTPVXVR14D2PF2DBS", "00n0y-4g2vt-pvxvr-14d2p-f2dbs",
		"]d200N0Y4G2VTPVXVR14D2PF2DBS\r", "", "]", "]C", "]X0123", "----", "\r\n\r\n",
		"ZZZZZZZZZZZZZZZZZZZZZZZZZ", "99999999999999", "\xff\xfe\x00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		k, c, err := Parse(text)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || c != nil {
				t.Fatalf("Parse(%q): untyped error %v or non-nil code", text, err)
			}
			known := false
			for _, s := range sentinels {
				known = known || errors.Is(err, s)
			}
			if !known || e.Error() == "" {
				t.Fatalf("Parse(%q): unclassified error %v", text, err)
			}
			return
		}
		if c.Kind() != k {
			t.Fatalf("Parse(%q): kind %v but code %T", text, k, c)
		}
		out, err := c.AppendText(nil)
		if err != nil {
			t.Fatalf("Parse(%q) accepted %+v that does not format: %v", text, c, err)
		}
		k2, c2, err := Parse(string(out))
		if err != nil || k2 != k || c2 != c {
			t.Fatalf("Parse(%q) = %+v, reformatted %q parses to %+v %v", text, c, out, c2, err)
		}
	})
}

// FuzzValidationFields: every in-range identity and secret formats to both forms and parses
// back exactly; out-of-range fields are refused by the formatter.
func FuzzValidationFields(f *testing.F) {
	f.Add(uint16(42), uint32(123456), uint8(3), []byte("0123456789"))
	f.Add(uint16(0), uint32(PacksPerBlock), uint8(9), []byte{})
	f.Fuzz(func(t *testing.T, block uint16, pack uint32, pos uint8, secret []byte) {
		var v ValidationCode
		v.Block, v.Pack, v.Position = block, pack, pos
		copy(v.Secret[:], secret)
		text, err := v.AppendText(nil)
		if v.Validate() != nil {
			if err == nil {
				t.Fatalf("%+v formatted to %q", v, text)
			}
			return
		}
		for _, s := range []string{string(text), v.Manual()} {
			got, err := ParseValidation(s)
			if err != nil || got != v {
				t.Fatalf("%+v → %q → %+v %v", v, s, got, err)
			}
		}
	})
}

// FuzzTicketIDBinary: any bytes either read as an in-range identity that writes back to the
// same bytes, or are refused with a typed error leaving the value unchanged.
func FuzzTicketIDBinary(f *testing.F) {
	f.Add([]byte{0, 42, 0, 1, 0xe2, 0x40, 3})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 1})
	f.Add([]byte{0x27, 0x0f, 0, 0x16, 0xe3, 0x5f, 8})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		id := TicketID{Block: 7, Pack: 7, Position: 7}
		err := id.UnmarshalBinary(b)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || id != (TicketID{Block: 7, Pack: 7, Position: 7}) {
				t.Fatalf("%x: %v, id %+v", b, err, id)
			}
			return
		}
		out, err := id.MarshalBinary()
		if err != nil || string(out) != string(b) {
			t.Fatalf("%x → %+v → %x %v", b, id, out, err)
		}
	})
}
