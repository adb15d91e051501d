package codes

import (
	"strings"
	"unicode/utf8"
)

// RedactKeep is how many significant characters Redact keeps of a text. A validation code's
// first 8 characters hold its version, block, pack and position (40 bits: what the ticket
// code printed outside the ticket shows); its 80-bit secret is in characters 9 to 24.
const RedactKeep = 8

// redactMin and redactMax bound the runs RedactText masks: a validation code has 25
// significant characters; a few more or fewer cover one typed wrong (ticket codes, 14
// digits, and pack codes, 12, are shorter and shown; longer runs are no code of ours).
const (
	redactMin = ValidationLen - 5
	redactMax = maxText
)

// Redact returns a scanned or typed text fit to log or show: a ticket or pack code (printed
// outside the ticket, no secret) as it is, anything else cut after its first RedactKeep
// significant characters (dashes and blanks are not significant) and marked "…". A
// validation code thus shows only the ticket it names, never its secret; so does a
// mistyped one, or a token typed in the wrong field.
func Redact(text string) string {
	t := strings.TrimSpace(text)
	if k, _, err := Parse(t); err == nil && (k == KindTicket || k == KindPack) {
		return t
	}
	n := 0
	for i, r := range t {
		if isSeparator(r) {
			continue
		}
		if n == RedactKeep {
			return strings.TrimRight(t[:i], "- \t") + "…"
		}
		n++
	}
	return t
}

// RedactText returns s with each run that may be a validation code masked by Redact: a run
// of letters, digits and dashes that holds a digit and 20 to 32 significant characters
// (every validation code starts with a digit: its version and the block's high bits). For
// free text that may quote a code (log lines, error messages).
func RedactText(s string) string {
	var sb strings.Builder
	last := 0 // s[:last] is in sb
	for i := 0; i < len(s); {
		if !isCodeByte(s[i]) {
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
			continue
		}
		j, sig, digit := runEnd(s, i)
		if digit && sig >= redactMin && sig <= redactMax {
			if sb.Len() == 0 {
				sb.Grow(len(s))
			}
			sb.WriteString(s[last:i])
			sb.WriteString(Redact(s[i:j]))
			last = j
		}
		i = j
	}
	if last == 0 {
		return s
	}
	sb.WriteString(s[last:])
	return sb.String()
}

// runEnd returns where the run of code characters from i ends, its significant characters
// and whether it holds a digit. The run goes on across a single space between two groups of
// five (the manual-entry form typed with spaces).
func runEnd(s string, i int) (j, sig int, digit bool) {
	j = i
	group := 0
	for {
		for ; j < len(s) && isCodeByte(s[j]); j++ {
			if s[j] == '-' {
				group = 0
				continue
			}
			sig++
			group++
			digit = digit || (s[j] >= '0' && s[j] <= '9')
		}
		if group != 5 || j+6 > len(s) || s[j] != ' ' || firstGroup(s[j+1:]) != 5 {
			return j, sig, digit
		}
		j++
		group = 0
	}
}

// firstGroup is the length of the run of letters and digits s starts with.
func firstGroup(s string) int {
	n := 0
	for n < len(s) && s[n] != '-' && isCodeByte(s[n]) {
		n++
	}
	return n
}

func isSeparator(r rune) bool { return r == '-' || r == ' ' || r == '\t' }

func isCodeByte(c byte) bool {
	return c == '-' || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
}
