package money

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	ok := map[string]int64{
		"0": 0, "150": 15000, "150,5": 15050, "150,50": 15050, "150,05": 15005, "5 000,00": 500000,
		"5\u00a0000": 500000, "5\u202f000,10": 500010, "1 000 000": 100000000, " 12,34 € ": 1234, "150€": 15000,
		"1\u00a0000,00\u00a0€": 100000, "1000000000": 100000000000,
	}
	for s, want := range ok {
		if got, err := Parse(s); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	bad := map[string]error{
		"": ErrSyntax, "€": ErrSyntax, "1.50": ErrDot, "150.00": ErrDot, "1.500": ErrDot, "-5": ErrSyntax,
		"150,": ErrSyntax, "150,123": ErrSyntax, "150,a": ErrSyntax, "15 00": ErrSyntax, "1500 000": ErrSyntax,
		"abc": ErrSyntax, "1,2,3": ErrSyntax, "12345678901": ErrRange, "1000000001": ErrRange, "0x10": ErrSyntax,
		"+5": ErrSyntax, "€5": ErrSyntax, "5  000": ErrSyntax,
	}
	for s, want := range bad {
		if got, err := Parse(s); !errors.Is(err, want) {
			t.Errorf("Parse(%q) = %d, %v; want %v", s, got, err, want)
		}
	}
	// The error of a dot says what to write instead.
	if _, err := Parse("1.50"); err == nil || !strings.Contains(err.Error(), `"1,50"`) {
		t.Errorf("Parse(1.50): %v", err)
	}
}

func TestFormat(t *testing.T) {
	fr := func(c int64) string { return strings.ReplaceAll(Format(c, French), "\u00a0", " ") }
	for c, want := range map[int64]string{0: "0,00 €", 5: "0,05 €", 12_50: "12,50 €", 1_000_00: "1 000,00 €",
		100_000_00: "100 000,00 €", -2_50: "-2,50 €", 123_456_789_00: "123 456 789,00 €"} {
		if got := fr(c); got != want {
			t.Errorf("Format(%d, French) = %q, want %q", c, got, want)
		}
	}
	en := Style{Group: ',', Decimal: '.', Prefix: "€"}
	if got := Format(1_234_50, en); got != "€1,234.50" {
		t.Errorf("english %q", got)
	}
	if got := Format(15_000_00, Style{Group: ' ', Decimal: ',', Suffix: " €", ShortWhole: true}); got != "15 000 €" {
		t.Errorf("short whole %q", got)
	}
	if got := Plain(-1 << 63); got != "-92233720368547758,08" {
		t.Errorf("Plain(MinInt64) = %q", got)
	}
	for _, c := range []int64{0, 1, 99, 100, 15050, 500000, MaxEuros * 100} {
		for _, s := range []string{Plain(c), Format(c, French)} {
			if got, err := Parse(s); err != nil || got != c {
				t.Errorf("Parse(%q) = %d, %v; want %d", s, got, err, c)
			}
		}
	}
}

// FuzzParse: any input either parses to an amount in range that Plain writes back to the
// same amount, or fails with one of the package's errors; never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"150", "150,50", "5 000,00", "1.50", "-5", "", "€", "1\u00a0000,00\u00a0€", "99999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrDot) && !errors.Is(err, ErrRange) {
				t.Fatalf("Parse(%q): unexpected error %v", s, err)
			}
			return
		}
		if c < 0 || c > MaxEuros*100+99 {
			t.Fatalf("Parse(%q) = %d out of range", s, c)
		}
		if back, err := Parse(Plain(c)); err != nil || back != c {
			t.Fatalf("Parse(Plain(%d)) = %d, %v", c, back, err)
		}
		if back, err := Parse(Format(c, French)); err != nil || back != c {
			t.Fatalf("Parse(Format(%d)) = %d, %v", c, back, err)
		}
	})
}
