package config

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong in a configuration, for the technician (in English).
type Problem struct {
	File string // the file, when read by Load
	Line int    // 1-based line in the file; 0 when the problem has no line (a missing key)
	Key  string // dotted key, e.g. "limits.pay_per_ticket"
	Msg  string
}

// String is "file:line: key: msg", leaving out what is unknown.
func (p Problem) String() string {
	var b strings.Builder
	switch {
	case p.File != "" && p.Line > 0:
		fmt.Fprintf(&b, "%s:%d: ", p.File, p.Line)
	case p.File != "":
		fmt.Fprintf(&b, "%s: ", p.File)
	case p.Line > 0:
		fmt.Fprintf(&b, "line %d: ", p.Line)
	}
	if p.Key != "" {
		b.WriteString(p.Key)
		b.WriteString(": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Errors are all the problems of a configuration, in file order. Parse, Load and
// Validate return them as *Errors.
type Errors []Problem

// Error lists every problem, one a line.
func (e Errors) Error() string {
	lines := make([]string, len(e))
	for i, p := range e {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}
