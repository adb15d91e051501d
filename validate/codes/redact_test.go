package codes

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	v := ValidationCodeOf(exID, exSecret)
	text, manual := v.String(), v.Manual()
	spaced := strings.ReplaceAll(manual, "-", " ")
	for _, c := range []struct{ in, want string }{
		{text, text[:8] + "…"},
		{strings.ToLower(text) + "\r\n", strings.ToLower(text[:8]) + "…"},
		{manual, manual[:9] + "…"},
		{spaced, spaced[:9] + "…"},
		{text[:24] + "Z", text[:8] + "…"},    // mistyped: still masked
		{"30042012345631", "30042012345631"}, // a ticket code: printed outside, shown
		{"004201234560", "004201234560"},     // a pack code
		{"correct horse battery", "correct h…"},
		{"short", "short"},
		{"", ""},
		{"ÉÉÉÉÉÉÉÉÉÉ", "ÉÉÉÉÉÉÉÉ…"},
	} {
		if got := Redact(c.in); got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestRedactText(t *testing.T) {
	v := ValidationCodeOf(exID, exSecret)
	text, manual := v.String(), v.Manual()
	spaced := strings.ReplaceAll(manual, "-", " ")
	for _, c := range []struct{ in, want string }{
		{"scan " + text + " refused", "scan " + text[:8] + "… refused"},
		{"code=" + manual + ",", "code=" + manual[:9] + "…,"},
		{"a " + spaced + " b", "a " + spaced[:9] + "… b"},
		{`"` + text + `" and "` + text + `"`, `"` + text[:8] + `…" and "` + text[:8] + `…"`},
		{"ticket 42/123456/3 ticket code 30042012345631", "ticket 42/123456/3 ticket code 30042012345631"},
		{"no-digits-in-this-long-hyphenated-phrase", "no-digits-in-this-long-hyphenated-phrase"},
		{"hash " + strings.Repeat("ab12", 16), "hash " + strings.Repeat("ab12", 16)}, // 64 hex: no code
		{"", ""},
	} {
		if got := RedactText(c.in); got != c.want {
			t.Errorf("RedactText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzRedactText: any text comes back without the secret part of a validation code put in
// it, whatever surrounds it; never a panic.
func FuzzRedactText(f *testing.F) {
	for _, s := range []string{"", "scan 00N0Y4G2VTPVXVR14D2PF2DBS", "00n0y-4g2vt-pvxvr-14d2p-f2dbs", "00N0Y 4G2VT PVXVR 14D2P F2DBS x",
		"ab12ab12ab12ab12ab12ab12ab12", "\xff\xfe 1-2-3-4-5-6-7-8-9-0-1-2-3-4-5-6-7-8-9-0", "É00N0Y4G2VTPVXVR14D2PF2DBSÉ"} {
		f.Add(s, uint16(7))
	}
	f.Fuzz(func(t *testing.T, s string, at uint16) {
		_ = Redact(s)
		_ = RedactText(s)
		code := ValidationCodeOf(exID, exSecret).String()
		if strings.Contains(s, code[RedactKeep:]) {
			return // the secret is in the text already, not from the code put in
		}
		i := int(at) % (len(s) + 1)
		in := s[:i] + " " + code + " " + s[i:]
		if got := RedactText(in); strings.Contains(got, code[RedactKeep:]) {
			t.Fatalf("RedactText(%q) = %q: the secret shows", in, got)
		}
	})
}
