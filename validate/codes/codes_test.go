package codes

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

var (
	exID     = TicketID{Block: 42, Pack: 123456, Position: 3}
	exSecret = [SecretSize]byte{0xde, 0xad, 0xbe, 0xef, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab}
)

// The golden texts pin the formats of docs/codes.md: changing them breaks printed tickets.
func TestGolden(t *testing.T) {
	p := PackCode{Block: 42, Pack: 123456}
	if got, want := p.String(), "004201234560"; got != want {
		t.Errorf("pack %q, want %q", got, want)
	}
	if got, want := p.HumanReadable(), "0042 0123456 0"; got != want {
		t.Errorf("pack human %q, want %q", got, want)
	}
	tc := TicketCodeOf(exID)
	if got, want := tc.String(), "30042012345631"; got != want {
		t.Errorf("ticket %q, want %q", got, want)
	}
	if got, want := tc.HumanReadable(), "3 0042 0123456 3 1"; got != want {
		t.Errorf("ticket human %q, want %q", got, want)
	}
	v := ValidationCodeOf(exID, exSecret)
	if got, want := v.String(), "00N0Y4G2VTPVXVR14D2PF2DBS"; got != want {
		t.Errorf("validation %q, want %q", got, want)
	}
	if got, want := v.Manual(), "00N0Y-4G2VT-PVXVR-14D2P-F2DBS"; got != want {
		t.Errorf("validation manual %q, want %q", got, want)
	}
}

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ids := []TicketID{
		{Block: MinBlock, Pack: 0, Position: 1},
		{Block: MaxBlock, Pack: PacksPerBlock - 1, Position: TicketsPerPack},
	}
	for range 2000 {
		ids = append(ids, randomID(rng))
	}
	for _, id := range ids {
		var secret [SecretSize]byte
		for i := range secret {
			secret[i] = byte(rng.Uint32())
		}
		p := PackCode{id.Block, id.Pack}
		if got, err := ParsePack(p.String()); err != nil || got != p {
			t.Fatalf("pack %+v: %+v %v", p, got, err)
		}
		tc := TicketCodeOf(id)
		if got, err := ParseTicket(tc.String()); err != nil || got != tc || got.ID() != id {
			t.Fatalf("ticket %+v: %+v %v", tc, got, err)
		}
		v := ValidationCodeOf(id, secret)
		for _, text := range []string{v.String(), v.Manual(), strings.ToLower(v.Manual())} {
			k, c, err := Parse(text)
			if err != nil || k != KindValidation || c.(ValidationCode) != v || v.ID() != id {
				t.Fatalf("validation %q: %v %+v %v", text, k, c, err)
			}
		}
		if v.TicketCode() != tc {
			t.Fatalf("ticket code of %+v", v)
		}
	}
}

func TestParseForms(t *testing.T) {
	pack := PackCode{Block: 42, Pack: 123456}
	ticket := TicketCodeOf(exID)
	val := ValidationCodeOf(exID, exSecret)
	cases := []struct {
		text string
		want Code
	}{
		{"004201234560", pack},
		{"004201234560\r\n", pack},
		{"0042 0123456 0", pack},
		{"0042-0123456-0\n", pack},
		{"30042012345631", ticket},
		{"3 0042 0123456 3 1", ticket},
		{"00N0Y4G2VTPVXVR14D2PF2DBS", val},
		{"00n0y-4g2vt-pvxvr-14d2p-f2dbs", val},
		{" 00N0Y 4G2VT PVXVR 14D2P F2DBS ", val},
		{"OON0Y-4G2VT-PVXVR-l4D2P-F2DBS", val}, // O typed for 0, l for 1
	}
	for _, c := range cases {
		k, got, err := Parse(c.text)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.text, err)
			continue
		}
		if k != c.want.Kind() || got != c.want {
			t.Errorf("Parse(%q) = %v %+v, want %+v", c.text, k, got, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		text string
		kind Kind
		want error
		msg  string
	}{
		{"", KindUnknown, ErrEmpty, "codes: code: empty code: no characters"},
		{"\r\n", KindUnknown, ErrEmpty, ""},
		{"12345", KindUnknown, ErrUnknownKind, "codes: code: unknown kind of code: 5 characters: a pack code has 12 digits, a ticket code 14, a validation code 25 characters"},
		{strings.Repeat("1", 40), KindUnknown, ErrUnknownKind, ""},
		{"004201234561", KindPack, ErrCheck, "codes: pack code: bad check character: Damm check digit does not match"},
		{"00420123456A", KindPack, ErrCharacter, "codes: pack code: invalid character: 'A' at position 12, want a digit"},
		{"30042012345632", KindTicket, ErrCheck, ""},
		{"00N0Y4G2VTPVXVR14D2PF2DBT", KindValidation, ErrCheck, "codes: validation code: bad check character: check character does not match"},
		{"00N0Y4G2VTPVXVR14D2PF2DBU", KindValidation, ErrCharacter, ""},
		// Well-formed with a valid check digit but out of range or inconsistent.
		{withDamm("00001234567"), KindPack, ErrRange, "codes: pack code: field out of range: block 0 not in 1..9999"},
		{withDamm("00421500000"), KindPack, ErrRange, ""},
		{withDamm("9004201234569"), KindTicket, ErrRange, ""},
		{withDamm("3004201234564"), KindTicket, ErrInconsistent, "codes: ticket code: inconsistent fields: game 3 at position 4 (game k sits at position k)"},
		{withCheck32("Z00000000000000000000000"), KindValidation, ErrVersion, ""},
		{withCheck32("0ZZZZ0000000000000000000"), KindValidation, ErrRange, ""},
	}
	for _, c := range cases {
		k, got, err := Parse(c.text)
		if !errors.Is(err, c.want) || got != nil {
			t.Errorf("Parse(%q) = %v, %v; want %v", c.text, got, err, c.want)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Kind != c.kind {
			t.Errorf("Parse(%q): error %#v, want kind %v", c.text, err, c.kind)
		}
		if k != KindUnknown && k != c.kind {
			t.Errorf("Parse(%q) kind %v, want %v", c.text, k, c.kind)
		}
		if c.msg != "" && err.Error() != c.msg {
			t.Errorf("Parse(%q): %q, want %q", c.text, err.Error(), c.msg)
		}
	}
	// Typed parsers refuse another kind's length, and AIM identifiers are no part of a code.
	if _, err := ParsePack("00N0Y4G2VTPVXVR14D2PF2DBS"); !errors.Is(err, ErrLength) {
		t.Errorf("ParsePack(validation): %v", err)
	}
	if _, _, err := Parse("]C0004201234560"); err == nil {
		t.Error("Parse accepted an AIM identifier")
	}
	if _, err := ParseTicket("004201234560"); !errors.Is(err, ErrLength) {
		t.Errorf("ParseTicket(pack): %v", err)
	}
	if _, err := ParseValidation("30042012345631"); !errors.Is(err, ErrLength) {
		t.Errorf("ParseValidation(ticket): %v", err)
	}
}

func TestFormatRefusesOutOfRange(t *testing.T) {
	bad := []Code{
		PackCode{Block: 0, Pack: 1},
		PackCode{Block: 1, Pack: PacksPerBlock},
		TicketCode{Game: 2, Block: 1, Pack: 1, Position: 3},
		TicketCode{Game: 9, Block: 1, Pack: 1, Position: 9},
		ValidationCode{Block: MaxBlock + 1, Pack: 1, Position: 1},
		ValidationCode{Block: 1, Pack: 1, Position: 0},
	}
	for _, c := range bad {
		if b, err := c.AppendText(nil); !errors.Is(err, ErrRange) && !errors.Is(err, ErrInconsistent) || len(b) != 0 {
			t.Errorf("%+v: %q %v", c, b, err)
		}
		if !strings.HasPrefix(c.String(), "invalid ") {
			t.Errorf("%+v: String %q", c, c.String())
		}
	}
	if err := (TicketID{Block: 1, Pack: 1, Position: 9}).Validate(); !errors.Is(err, ErrRange) {
		t.Errorf("TicketID.Validate: %v", err)
	}
}

func TestTicketID(t *testing.T) {
	if got := exID.String(); got != "0042/0123456/3" {
		t.Errorf("String %q", got)
	}
	if got := exID.Index(); got != 123456*8+2 {
		t.Errorf("Index %d", got)
	}
	last := TicketID{Block: 1, Pack: PacksPerBlock - 1, Position: 8}
	if last.Index() != PacksPerBlock*TicketsPerPack-1 || last.Game() != 8 {
		t.Errorf("last index %d", last.Index())
	}
}

func TestTextMarshaling(t *testing.T) {
	v := ValidationCodeOf(exID, exSecret)
	b, err := v.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	var w ValidationCode
	if err := w.UnmarshalText(b); err != nil || w != v {
		t.Fatalf("%+v %v", w, err)
	}
	var p PackCode
	if err := p.UnmarshalText([]byte("bad")); err == nil || p != (PackCode{}) {
		t.Fatalf("unmarshal bad: %+v %v", p, err)
	}
}

func TestParseAllocations(t *testing.T) {
	text := ValidationCodeOf(exID, exSecret).Manual() + "\r\n"
	if n := testing.AllocsPerRun(100, func() { _, _ = ParseValidation(text) }); n != 0 {
		t.Errorf("ParseValidation allocates %v times", n)
	}
	buf := make([]byte, 0, 64)
	v := ValidationCodeOf(exID, exSecret)
	if n := testing.AllocsPerRun(100, func() { buf, _ = v.AppendText(buf[:0]) }); n != 0 {
		t.Errorf("AppendText allocates %v times", n)
	}
}

// withDamm appends the Damm check digit to a digit string.
func withDamm(s string) string {
	d := make([]byte, len(s))
	for i := range s {
		d[i] = s[i] - '0'
	}
	return s + string('0'+dammDigit(d))
}

// withCheck32 appends the base-32 check character to a canonical base-32 string.
func withCheck32(s string) string {
	d := make([]byte, len(s))
	for i := range s {
		d[i] = b32Value[s[i]]
	}
	return s + string(crockford[check32(d)])
}

func TestTicketIDBinary(t *testing.T) {
	b, err := exID.MarshalBinary()
	if err != nil || fmt.Sprintf("%x", b) != "002a0001e24003" {
		t.Fatalf("%x %v", b, err)
	}
	var id TicketID
	if err := id.UnmarshalBinary(b); err != nil || id != exID {
		t.Fatalf("%+v %v", id, err)
	}
	if _, err := (TicketID{}).MarshalBinary(); !errors.Is(err, ErrRange) {
		t.Errorf("zero identity: %v", err)
	}
	if err := id.UnmarshalBinary(b[:6]); !errors.Is(err, ErrLength) || id != exID {
		t.Errorf("short: %v", err)
	}
}
