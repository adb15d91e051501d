package terminal

import (
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/journal"
)

// guessReplay bounds how many wrong tokens a gate reads back from the journal: past
// guesses.Free + 11 wrong ones in a row the pause no longer grows (guesses.Longest).
const guessReplay = 64

// newGate is the token gate of a locked state, its wrong tokens counted again from the
// journal (token-refused records since the last unlock), so that neither a restart nor
// leaving the state and coming back gives a guess back.
func (t *Terminal) newGate(state string, rest retail.Screen) *tokenGate {
	g := &tokenGate{state: state, rest: rest}
	j := t.data.Journal
	var unlock uint64
	err := j.Latest(journal.KindUnlock, func(r journal.Record) bool { unlock = r.Seq; return false })
	var wrong []journal.Record
	if err == nil {
		err = j.Latest(journal.KindTokenRefused, func(r journal.Record) bool {
			if r.Seq <= unlock {
				return false
			}
			wrong = append(wrong, r)
			return len(wrong) < guessReplay
		})
	}
	if err != nil && j.Missing() == nil { // a refused journal holds nothing to read back
		t.log.Error("terminal: "+state+": wrong tokens not read back from the journal", "err", err)
	}
	for i := len(wrong) - 1; i >= 0; i-- { // oldest first
		g.tries.Result(wrong[i].Time, false)
	}
	if len(wrong) > 0 {
		t.log.Warn("terminal: "+state+": wrong technician tokens counted from the journal", "wrong", len(wrong),
			"pause", g.tries.Pause(t.cfg.Clock.Now()))
	}
	return g
}

// wrongToken journals a wrong technician token taken at gate g: the state and the input,
// never the token. A refused journal records nothing: there the count lives until the
// process ends.
func (t *Terminal) wrongToken(g *tokenGate, ev Event) {
	if t.data.Journal.Missing() != nil {
		return
	}
	_, err := t.recordTrace(journal.Entry{Kind: journal.KindTokenRefused, Reason: "wrong-token",
		Detail: g.state + ": " + ev.Kind.String()})
	if err != nil {
		t.log.Error("terminal: "+g.state+": wrong token not journalled", "err", err)
	}
}
