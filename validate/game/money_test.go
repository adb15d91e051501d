package game

import "testing"

func TestCentsString(t *testing.T) {
	for c, want := range map[Cents]string{
		0: "0 €", 100: "1 €", 250: "2,50 €", 105: "1,05 €", Euros(1000): "1 000 €",
		Euros(15_000): "15 000 €", Euros(11_250_140): "11 250 140 €", -250: "-2,50 €",
	} {
		if got := c.String(); got != want {
			t.Errorf("%d: %q, want %q", int64(c), got, want)
		}
	}
}

// TestInLetters: the transcription in letters printed on tickets (4.2.3, 4.3.3, …),
// traditional French spelling.
func TestInLetters(t *testing.T) {
	for e, want := range map[int64]string{
		1: "UN EURO", 2: "DEUX EUROS", 12: "DOUZE EUROS", 17: "DIX-SEPT EUROS", 21: "VINGT ET UN EUROS",
		30: "TRENTE EUROS", 45: "QUARANTE-CINQ EUROS", 71: "SOIXANTE ET ONZE EUROS", 77: "SOIXANTE-DIX-SEPT EUROS",
		80: "QUATRE-VINGTS EUROS", 81: "QUATRE-VINGT-UN EUROS", 91: "QUATRE-VINGT-ONZE EUROS",
		100: "CENT EUROS", 200: "DEUX CENTS EUROS", 250: "DEUX CENT CINQUANTE EUROS", 1000: "MILLE EUROS",
		2000: "DEUX MILLE EUROS", 7500: "SEPT MILLE CINQ CENTS EUROS", 15_000: "QUINZE MILLE EUROS",
		80_000: "QUATRE-VINGT MILLE EUROS", 100_000: "CENT MILLE EUROS", 200_000: "DEUX CENT MILLE EUROS",
		1_000_000: "UN MILLION D'EUROS", 2_000_000: "DEUX MILLIONS D'EUROS", 11_250_140: "ONZE MILLIONS DEUX CENT CINQUANTE MILLE CENT QUARANTE EUROS",
	} {
		if got := Euros(e).InLetters(); got != want {
			t.Errorf("%d: %q, want %q", e, got, want)
		}
	}
	if got := Cents(250).InLetters(); got != "DEUX EUROS ET CINQUANTE CENTIMES" {
		t.Errorf("2,50: %q", got)
	}
}

func TestGroupDigits(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1 000", 42_006_947: "42 006 947", -1_500_000: "-1 500 000"} {
		if got := GroupDigits(n); got != want {
			t.Errorf("%d: %q, want %q", n, got, want)
		}
	}
	if got := Reglement().WinnersText(); got != "1, 2, 3, 4, 5, 7" {
		t.Errorf("WinnersText: %q", got)
	}
}
