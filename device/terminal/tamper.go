package terminal

import (
	"context"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/journal"
)

// tampered reports whether the tamper switch's latch is tripped.
func (t *Terminal) tampered() bool {
	return t.parts.Tamper != nil && t.parts.Tamper.State().Tripped
}

// tamperLock records the opening and locks the terminal until a technician unlocks it with
// the case closed; then it resumes with then (idle by default). The technician's token
// comes from their card, scanned, or as an unlock input (the emulator's !unlock), through
// the token gate (tokengate.go): no ticket is judged and no pack sold, other scans are
// answered TERMINAL VERROUILLÉ and are no guess, wrong tokens are throttled.
type tamperLock struct {
	then     State
	recorded bool // already in the journal (restart while locked)
}

func (tamperLock) Name() string { return "tamper-locked" }

func (s tamperLock) Run(ctx context.Context, t *Terminal) State {
	if !s.recorded {
		if _, err := t.recordTrace(journal.Entry{Kind: journal.KindTamper, Reason: "case-opened"}); err != nil {
			t.log.Error("terminal: journal tamper", "err", err)
		}
		t.log.Warn("terminal: tamper switch: locked until a technician unlocks")
	}
	g := t.newGate("tamper-locked", retail.TamperLocked())
	t.show(g.rest)
	t.signal(ctx, retail.SignalAttention)
	for {
		if _, ok := t.awaitToken(ctx, g); !ok {
			return nil
		}
		if t.parts.Tamper != nil {
			if t.parts.Tamper.State().Open {
				g.setNote(t, retail.UnlockRefused())
				continue
			}
			t.parts.Tamper.Reset()
		}
		if _, err := t.recordTrace(journal.Entry{Kind: journal.KindUnlock, Reason: "technician"}); err != nil {
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
