package config

import (
	"slices"
	"strings"
	"testing"
)

// Changes names each setting that differs, old and new values, the token's hash redacted.
func TestChanges(t *testing.T) {
	was := Emulated()
	was.Technician.TokenSHA256 = strings.Repeat("ab", 32)
	now := was
	if got, err := Changes(&was, &now); err != nil || len(got) != 0 {
		t.Fatalf("no change: %q %v", got, err)
	}
	now.RetailerName = "TABAC DU PORT"
	now.Limits.PerDay = 6000_00
	now.Technician.TokenSHA256 = strings.Repeat("cd", 32)
	got, err := Changes(&was, &now)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`limits.pay_per_day: "5000,00" -> "6000,00"`,
		`technician.token_sha256: "abababab…" -> "cdcdcdcd…"`,
		`terminal.retailer_name: "` + was.RetailerName + `" -> "TABAC DU PORT"`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("changes\n%q\nwant\n%q", got, want)
	}
}
