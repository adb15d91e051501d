package emulated

import (
	"strings"
	"testing"
)

func TestDemoCodeAliases(t *testing.T) {
	d := &Demo{Codes: []DemoCode{
		{What: "pack", Code: "P"}, {What: "winner", Code: "W1", Amount: 100}, {What: "winner", Code: "W2", Amount: 1250},
		{What: "winner above the limit", Code: "C", Amount: 20000}, {What: "loser", Code: "L"},
	}}
	want := map[string]string{"pack": "P", "winner-1": "W1", "winner-12,50": "W2", "claim-200": "C", "loser": "L"}
	got := d.Aliases()
	if len(got) != len(want) {
		t.Fatalf("aliases %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("@%s = %q, want %q", k, got[k], v)
		}
	}
	r := &Rig{opts: Options{Aliases: got}}
	if line, err := r.resolve(" @claim-200 "); err != nil || line != "C" {
		t.Errorf("resolve @claim-200 = %q, %v", line, err)
	}
	if line, err := r.resolve("000100000006"); err != nil || line != "000100000006" {
		t.Errorf("a code is not resolved: %q, %v", line, err)
	}
	if _, err := r.resolve("@winner-7"); err == nil || !strings.Contains(err.Error(), "@winner-12,50") {
		t.Errorf("unknown name: %v (want the known names listed)", err)
	}
	if _, err := (&Rig{}).resolve("@pack"); err == nil {
		t.Error("a name without a demo block was accepted")
	}
}

func TestParseExpect(t *testing.T) {
	in, ok, err := Parse("!expect  DÉJÀ PAYÉ ")
	if err != nil || !ok || in.Action != ActExpect || in.Arg != "DÉJÀ PAYÉ" {
		t.Fatalf("!expect: %+v %v %v", in, ok, err)
	}
	for _, line := range []string{"!expect", "!expect-receipt  "} {
		if _, _, err := Parse(line); err == nil {
			t.Errorf("%q accepted without a text", line)
		}
	}
}
