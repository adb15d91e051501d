//go:build !production

package web

import (
	"path/filepath"
	"strings"

	"github.com/packterm/pos/validate/codes"
)

// Stdin wraps the functions posd --emulate gives emulated.Rig.Feed for the lines typed on
// its stdin (or read from --script): echo sees each line before the terminal takes it,
// fail each line's error. Wrapped, each line that is an input also shows on the page as
// the last input (From "stdin"), its error with it, as the page's own inputs do; codes are
// masked as everywhere on the page, and an unlock's token is never shown; a line refused
// before it is applied (too long) shows as "line refused" with its error. Without the
// emulator's page they are returned as they are.
func (s *Server) Stdin(echo func(string), fail func(error)) (func(string), func(error)) {
	e := s.emu
	if e == nil {
		return echo, fail
	}
	var pending int // the answer of the line being applied (0: none); Feed is sequential
	return func(line string) {
			echo(line)
			pending = 0
			what, code, ok := describeLine(line)
			if !ok {
				return
			}
			pending = e.answer(Answer{Input: what, From: "stdin"}, nil).N
			e.drawLater(pending, code)
		}, func(err error) {
			fail(err)
			if err == nil {
				return
			}
			n := pending
			pending = 0 // one error per line
			e.mu.Lock()
			if n != 0 {
				if e.last.N == n { // else the page's own input came since: it is the last
					e.last.Error = codes.RedactText(err.Error())
				}
				e.mu.Unlock()
				return
			}
			e.mu.Unlock()
			// A line refused before it was applied (too long to read): shown as such.
			e.answer(Answer{Input: "line refused", From: "stdin"}, err)
		}
}

// describeLine is what the page shows of a line of the emulator's input language (ok false:
// a blank line or a comment, no input), and the code it scans, if it names one itself (an
// alias "@name" is resolved by the emulator).
func describeLine(line string) (what, code string, ok bool) {
	t := strings.TrimSpace(line)
	if t == "" || strings.HasPrefix(t, "#") {
		return "", "", false
	}
	if strings.HasPrefix(t, "@") {
		return "scan " + codes.RedactText(t), "", true
	}
	if !strings.HasPrefix(t, "!") {
		return "scan " + codes.Redact(t), t, true
	}
	name, arg, _ := strings.Cut(t[1:], " ")
	name, arg = strings.ToLower(name), strings.TrimSpace(arg)
	switch {
	case arg == "" || name == "unlock": // the token, never shown
		return name, "", true
	case name == "photo":
		return "photo " + filepath.Base(arg), "", true
	default:
		return name + " " + codes.RedactText(arg), "", true
	}
}
