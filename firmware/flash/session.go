package flash

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/internal/guesses"
)

// session is the state of one connection (or serial line) on a Server; authed when it
// holds the terminal as its technician session (Server.owner).
type session struct {
	s      *Server
	l      *link
	clock  clockwork.Clock
	log    *slog.Logger
	source string
	chunk  int // the largest data chunk this link takes (offered in the HelloOK)
	authed bool
	t      *transfer

	// Under s.mu: the last frame's time, whether a frame is being handled, and evict,
	// closed when a newer session replaces this silent one.
	lastFrame time.Time
	busy      bool
	evicted   bool
	evict     chan struct{}
	ended     chan struct{} // closed once the session has let go of its transfer
}

// reset ends the technician session: the transfer stays spooled for a resume.
func (ss *session) reset() {
	ss.closeTransfer()
	if ss.authed {
		ss.authed = false
		ss.s.letGo(ss)
	}
}

// hangUp is reset when the connection ends.
func (ss *session) hangUp() {
	ss.reset()
	close(ss.ended)
}

func (ss *session) closeTransfer() {
	if ss.t != nil {
		ss.t.close()
		ss.t = nil
	}
}

// fail sends an Error frame; the returned error is only the link's.
func (ss *session) fail(code byte, format string, a ...any) error {
	msg := fmt.Sprintf(format, a...)
	ss.log.Warn("flash: refused", "code", code, "why", msg)
	return ss.l.send(tError, encodeError(code, msg))
}

func (ss *session) handle(ctx context.Context, f Frame) error {
	if f.Type == tHello {
		return ss.hello(ctx, f.Payload)
	}
	if !ss.authed {
		return ss.fail(codeAuth, "say hello with the technician token first")
	}
	switch f.Type {
	case tBegin:
		return ss.begin(f.Payload)
	case tData:
		return ss.data(f.Payload)
	case tEnd:
		return ss.end(ctx)
	}
	return ss.fail(codeProtocol, "unexpected frame type %q", f.Type)
}

func (ss *session) hello(ctx context.Context, p []byte) error {
	ss.reset()
	if len(p) < 1 || p[0] != ProtocolVersion || len(p)-1 > MaxTokenSize {
		return ss.fail(codeProtocol, "hello: protocol version or token size")
	}
	g := ss.s.guesses()
	now := ss.clock.Now()
	if err := g.Check(ss.source, now); err != nil {
		ss.authDelay(ctx)
		var pe *guesses.PauseError
		errors.As(err, &pe)
		if errors.Is(err, guesses.ErrBudget) {
			return ss.fail(codeAuth, "too many wrong tokens from elsewhere: none is checked for %v", pe.Wait.Round(time.Second))
		}
		return ss.fail(codeAuth, "too many wrong tokens: none is checked for %v", pe.Wait.Round(time.Second))
	}
	sum := sha256.Sum256(p[1:])
	want := ss.s.TokenHash
	ok := subtle.ConstantTimeCompare(sum[:], want[:]) == 1 && want != [32]byte{}
	g.Result(ss.source, now, ok)
	if !ok {
		ss.authDelay(ctx)
		return ss.fail(codeAuth, "technician token refused")
	}
	ss.s.active(now) // the technician's: a restart waits for the session about to open
	if why := ss.s.claim(ctx, ss, now); why != "" {
		return ss.fail(codeBusy, "%s", why)
	}
	ss.authed = true
	ss.log.Info("flash: technician session opened")
	return ss.l.send(tHelloOK, helloOK(ss.chunk))
}

// authDelay waits AuthDelay (default 1 s) before a refusal is answered.
func (ss *session) authDelay(ctx context.Context) {
	d := ss.s.AuthDelay
	if d == 0 {
		d = time.Second
	}
	if d > 0 {
		select {
		case <-ss.clock.After(d):
		case <-ctx.Done():
		}
	}
}
