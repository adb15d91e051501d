package terminal

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
	"time"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/internal/guesses"
	"github.com/packterm/pos/validate/journal"
)

// tampered reports whether the tamper switch's latch is tripped.
func (t *Terminal) tampered() bool {
	return t.parts.Tamper != nil && t.parts.Tamper.State().Tripped
}

// tamperLock records the opening and locks the terminal until a technician unlocks it with
// the case closed; then it resumes with then (idle by default). The technician's token
// comes as an unlock input (the emulator's !unlock) or is scanned from the technician's
// card: while locked, every scanned text is tried as the token and nothing else, so no
// ticket is judged and no pack sold. Guesses are throttled (internal/guesses): after 5
// wrong tokens, none is tried for a minute, twice as long after each further wrong one.
type tamperLock struct {
	then     State
	recorded bool // already in the journal (restart while locked)
}

func (tamperLock) Name() string { return "tamper-locked" }

func (s tamperLock) Run(ctx context.Context, t *Terminal) State {
	if !s.recorded {
		if _, err := t.record(journal.Entry{Kind: journal.KindTamper, Reason: "case-opened"}); err != nil {
			t.log.Error("terminal: journal tamper", "err", err)
		}
		t.log.Warn("terminal: tamper switch: locked until a technician unlocks")
	}
	t.show(retail.TamperLocked())
	t.signal(ctx, retail.SignalAttention)
	var tries guesses.Limiter // guesses of the token (internal/guesses)
	for {
		ev, ok := t.wait(ctx, 0)
		if !ok {
			return nil
		}
		switch ev.Kind {
		case EvScannerGone, EvScannerBack:
			t.setScanner(ev.Kind == EvScannerBack)
			continue
		case EvUnlock, EvScan:
		default:
			continue
		}
		now := t.cfg.Clock.Now()
		if wait := tries.Pause(now); wait > 0 {
			t.log.Warn("terminal: unlock not tried: too many wrong tokens", "input", ev.Kind.String(), "retry in", wait.Round(time.Second))
			continue
		}
		if !t.unlockToken(ev.Text, ev.Kind == EvScan) {
			n := tries.Result(now, false)
			t.log.Warn("terminal: unlock refused: wrong token", "input", ev.Kind.String(), "wrong", n)
			continue
		}
		tries.Result(now, true)
		if t.parts.Tamper != nil {
			if t.parts.Tamper.State().Open {
				t.show(retail.UnlockRefused())
				continue
			}
			t.parts.Tamper.Reset()
		}
		if _, err := t.record(journal.Entry{Kind: journal.KindUnlock, Reason: "technician"}); err != nil {
			t.log.Error("terminal: journal unlock", "err", err)
		}
		t.log.Info("terminal: unlocked by a technician")
		t.show(retail.Unlocked())
		if s.then != nil {
			return s.then
		}
		return result{"unlocked", retail.Unlocked(), retail.SignalNone}
	}
}

// unlockToken checks a technician's token against the configured hash. With none
// configured, unlock is off on a board; on the emulator (OpenUnlock) an unlock input is
// taken whatever its token, a scanned text never (it would be any code scanned while
// locked).
func (t *Terminal) unlockToken(token string, scanned bool) bool {
	want := strings.ToLower(strings.TrimSpace(t.cfg.UnlockTokenSHA256))
	if want == "" {
		return t.cfg.OpenUnlock && !scanned
	}
	sum := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare([]byte(hex.EncodeToString(sum[:])), []byte(want)) == 1
}
