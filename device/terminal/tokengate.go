package terminal

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"slices"
	"strings"
	"time"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/internal/guesses"
	"github.com/packterm/pos/internal/techcard"
)

// tokenGate is how a locked state (the tamper lock, a refused journal) takes the
// technician's token. Only a scan shaped like the technician's card (techcard: the QR code
// `posctl keys card` makes) or an unlock input (the emulator's !unlock) is a guess at the
// token; any other scan (a pack, a ticket, a validation code, a stray label) is answered
// TERMINAL VERROUILLÉ and counted nowhere, so the retailer's scans never lock the
// technician out. Wrong tokens are throttled (internal/guesses: after 5 in a row, none is
// tried for a minute, twice as long after each further wrong one), and the screen says so
// with the time left. Each wrong token is journalled (token-refused, never the token) and
// a gate counts them again from the journal (guesses.go), so a restart gives none back. With no token configured, unlock is off (fail closed: UnlockOff),
// except on the emulator (Config.OpenUnlock), which takes any unlock input or card.
type tokenGate struct {
	state     string        // the locked state, for the logs
	rest      retail.Screen // the state's own screen
	tries     guesses.Limiter
	note      retail.Screen // an answer, shown until noteUntil
	noteUntil time.Time
}

// setNote shows s for the result timeout, then the gate's screen again.
func (g *tokenGate) setNote(t *Terminal, s retail.Screen) {
	g.note, g.noteUntil = s, t.cfg.Clock.Now().Add(t.cfg.ResultTimeout)
}

// screen is what the gate shows at now, and how long until that may change (0: not
// before the next input).
func (g *tokenGate) screen(now time.Time) (retail.Screen, time.Duration) {
	if now.Before(g.noteUntil) {
		return g.note, g.noteUntil.Sub(now)
	}
	if left := g.tries.Pause(now); left > 0 {
		// Shown in whole minutes, rounded up: the next change is when that count drops.
		m := (left + time.Minute - 1) / time.Minute
		return retail.GuessPause(left), left - (m-1)*time.Minute
	}
	return g.rest, 0
}

// awaitToken shows the gate's screen and waits until the technician's token is given: it
// returns the input that carried it, or false when ctx ends.
func (t *Terminal) awaitToken(ctx context.Context, g *tokenGate) (Event, bool) {
	var shown []string
	for {
		s, next := g.screen(t.cfg.Clock.Now())
		if lines := retail.MustLayout(s.In(t.words()), t.parts.Screen.Cols(), t.parts.Screen.Rows()); !slices.Equal(lines, shown) {
			t.show(s)
			shown = lines
		}
		ev, ok := t.wait(ctx, next)
		if !ok {
			if ctx.Err() != nil {
				return Event{}, false
			}
			continue // an answer ended, or the pause's minutes changed
		}
		switch ev.Kind {
		case EvScannerGone, EvScannerBack:
			t.setScanner(ev.Kind == EvScannerBack)
			continue
		case EvUnlock, EvScan:
		default:
			continue
		}
		if t.tokenTaken(ctx, g, ev) {
			return ev, true
		}
	}
}

// tokenTaken decides on one scan or unlock input at a gate; a refusal sets the gate's
// answer.
func (t *Terminal) tokenTaken(ctx context.Context, g *tokenGate, ev Event) bool {
	token := ev.Text
	if ev.Kind == EvScan {
		tok, ok := techcard.Decode(ev.Text)
		if !ok {
			t.log.Info("terminal: "+g.state+": scan ignored: not the technician's card (no guess at the token)", "input", ev.Kind.String())
			g.setNote(t, retail.NotACard())
			t.signal(ctx, retail.SignalRefused)
			return false
		}
		token = tok
	}
	want := strings.ToLower(strings.TrimSpace(t.cfg.UnlockTokenSHA256))
	if want == "" {
		if t.cfg.OpenUnlock {
			return true // the emulator with no token: open to any unlock
		}
		t.log.Warn("terminal: "+g.state+": no technician token configured ([technician] token_sha256): unlock is off", "input", ev.Kind.String())
		g.setNote(t, retail.UnlockOff())
		t.signal(ctx, retail.SignalRefused)
		return false
	}
	now := t.cfg.Clock.Now()
	if wait := g.tries.Pause(now); wait > 0 {
		t.log.Warn("terminal: "+g.state+": token not tried: too many wrong tokens", "input", ev.Kind.String(), "retry in", wait.Round(time.Second))
		g.noteUntil = time.Time{} // the pause's own screen
		t.signal(ctx, retail.SignalRefused)
		return false
	}
	if !tokenMatches(token, want) {
		n := g.tries.Result(now, false)
		t.wrongToken(g, ev) // guesses.go: counted again at the next start
		t.log.Warn("terminal: "+g.state+": wrong technician token", "input", ev.Kind.String(), "wrong", n, "pause", g.tries.Pause(now))
		g.setNote(t, retail.CardRefused())
		if g.tries.Pause(now) > 0 {
			g.noteUntil = time.Time{} // the pause's screen says more
		}
		t.signal(ctx, retail.SignalRefused)
		return false
	}
	g.tries.Result(now, true)
	return true
}

// tokenMatches compares the SHA-256 of token with want (hex) in constant time.
func tokenMatches(token, want string) bool {
	sum := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare([]byte(hex.EncodeToString(sum[:])), []byte(want)) == 1
}
