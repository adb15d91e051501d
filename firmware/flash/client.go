package flash

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"
)

// Client is the technician's side: it sends one item over a link it (re)opens with Dial,
// resuming where the terminal stopped after the link breaks.
type Client struct {
	Dial  func(ctx context.Context) (io.ReadWriteCloser, error)
	Token []byte
	// Timeout bounds each wait for a reply (default 5 s); InstallTimeout the wait for the
	// terminal's verdict after the last byte (default 3 min).
	Timeout, InstallTimeout time.Duration
	// Attempts is how many times the link is opened before giving up (default 20);
	// Backoff is waited between attempts (default 1 s; negative: none).
	Attempts int
	Backoff  time.Duration
	// Chunk is the data bytes per frame: default and at most what the terminal offers in
	// its HelloOK (MaxNetChunk on a network link, MaxChunk on a serial one or from a
	// terminal that offers none).
	Chunk int
	// Progress, when set, is told the bytes the terminal acknowledged so far.
	Progress func(done, total int64)
	Clock    clockwork.Clock
	Logger   *slog.Logger
}

// Result tells how a transfer went.
type Result struct {
	Message  string  // the terminal's report
	Attempts int     // links opened
	Resumed  []int64 // offsets the terminal resumed from (after a broken link)
	Sent     int64   // data bytes sent, retransmissions included
}

// Send transfers size bytes of data as kind and returns when the terminal has installed
// it. Errors wrap ErrAuth, ErrRefused, ErrProtocol or ErrDevice for the terminal's
// answers, ErrBusy when another technician's session holds the terminal, ErrLink when the
// link could not be kept up for Attempts tries. Busy after this Send's own link broke is
// retried as a lost link: the terminal may not have noticed yet, and gives the session up
// once it has been silent for its TakeoverAfter.
func (c *Client) Send(ctx context.Context, kind Kind, data io.ReaderAt, size int64) (Result, error) {
	clock, log := c.Clock, c.Logger
	if clock == nil {
		clock = clockwork.NewRealClock()
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(data, 0, size)); err != nil {
		return Result{}, fmt.Errorf("flash: read %v: %w", kind, err)
	}
	b := begin{Kind: kind, Size: size, Sum: [32]byte(h.Sum(nil))}
	attempts := c.Attempts
	if attempts <= 0 {
		attempts = 20
	}
	var res Result
	var last error
	opened := false // a session was opened on an earlier link
	for res.Attempts < attempts {
		if res.Attempts > 0 && c.Backoff >= 0 {
			d := c.Backoff
			if d == 0 {
				d = time.Second
			}
			select {
			case <-clock.After(d):
			case <-ctx.Done():
				return res, ctx.Err()
			}
		}
		res.Attempts++
		conn, err := c.Dial(ctx)
		if err != nil {
			last = fmt.Errorf("%w: %v", ErrLink, err)
			log.Warn("flash: cannot open the link", "err", err)
			continue
		}
		sess := &clientSession{c: c, l: newLink(conn, MaxPayload), clock: clock, res: &res}
		err = sess.run(ctx, b, data)
		sess.l.stop()
		conn.Close()
		if err == nil {
			return res, nil
		}
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		if !errors.Is(err, ErrLink) && !(opened && errors.Is(err, ErrBusy)) {
			return res, err
		}
		opened = opened || sess.opened
		last = err
		log.Warn("flash: link lost, reconnecting", "err", err, "attempt", res.Attempts)
	}
	return res, fmt.Errorf("flash: gave up after %d attempts: %w", res.Attempts, last)
}

type clientSession struct {
	c      *Client
	l      *link
	clock  clockwork.Clock
	res    *Result
	opened bool // the terminal said HelloOK
}

func (cs *clientSession) send(typ byte, p []byte) error {
	if err := cs.l.send(typ, p); err != nil {
		return fmt.Errorf("%w: %v", ErrLink, err)
	}
	return nil
}

// await returns the payload of the next frame of type want; an Error frame is the
// terminal's refusal; other frames (stale replies) are skipped.
func (cs *clientSession) await(ctx context.Context, want byte, timeout time.Duration) ([]byte, error) {
	_, p, err := cs.awaitAny(ctx, timeout, want)
	return p, err
}

// awaitAny is await for any of several frame types; it returns the type received.
func (cs *clientSession) awaitAny(ctx context.Context, timeout time.Duration, want ...byte) (byte, []byte, error) {
	timer := cs.clock.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return 0, nil, ctx.Err()
		case <-timer.Chan():
			return 0, nil, fmt.Errorf("%w: no answer in %v", ErrLink, timeout)
		case f, ok := <-cs.l.frames:
			if !ok {
				return 0, nil, fmt.Errorf("%w: %v", ErrLink, cs.l.err)
			}
			if f.Type == tError {
				return 0, nil, decodeError(f.Payload)
			}
			for _, w := range want {
				if f.Type == w {
					return f.Type, f.Payload, nil
				}
			}
		}
	}
}

func (cs *clientSession) run(ctx context.Context, b begin, data io.ReaderAt) error {
	c := cs.c
	timeout, installTimeout := c.Timeout, c.InstallTimeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	if installTimeout <= 0 {
		installTimeout = 3 * time.Minute
	}
	if len(c.Token) > MaxTokenSize {
		return fmt.Errorf("flash: token longer than %d bytes: %w", MaxTokenSize, ErrAuth)
	}
	if err := cs.send(tHello, append([]byte{ProtocolVersion}, c.Token...)); err != nil {
		return err
	}
	ok, err := cs.await(ctx, tHelloOK, timeout)
	if err != nil {
		return err
	}
	chunk := offeredChunk(ok)
	if c.Chunk > 0 && c.Chunk < chunk {
		chunk = c.Chunk
	}
	cs.opened = true
	if err := cs.send(tBegin, b.encode()); err != nil {
		return err
	}
	// Done instead of Resume: the terminal installed this very item already (the link
	// broke while its verdict was on the way).
	typ, p, err := cs.awaitAny(ctx, timeout, tResume, tDone)
	if err != nil {
		return err
	}
	if typ == tDone {
		cs.res.Message = string(p)
		return nil
	}
	off, err := decodeOffset(p, "resume")
	if err != nil || off > b.Size {
		return fmt.Errorf("flash: resume offset out of range: %w", ErrProtocol)
	}
	if off > 0 {
		cs.res.Resumed = append(cs.res.Resumed, off)
	}
	buf := make([]byte, 8+chunk)
	for off < b.Size {
		n := int64(chunk)
		if b.Size-off < n {
			n = b.Size - off
		}
		copy(buf, encodeOffset(off))
		if _, err := data.ReadAt(buf[8:8+n], off); err != nil && err != io.EOF {
			return fmt.Errorf("flash: read: %w", err)
		}
		if err := cs.send(tData, buf[:8+n]); err != nil {
			return err
		}
		cs.res.Sent += n
		p, err := cs.await(ctx, tAck, timeout)
		if err != nil {
			return err
		}
		next, err := decodeOffset(p, "ack")
		if err != nil || next > b.Size {
			return fmt.Errorf("flash: ack offset out of range: %w", ErrProtocol)
		}
		off = next
		if c.Progress != nil {
			c.Progress(off, b.Size)
		}
	}
	if err := cs.send(tEnd, nil); err != nil {
		return err
	}
	p, err = cs.await(ctx, tDone, installTimeout)
	if err != nil {
		return err
	}
	cs.res.Message = string(p)
	return nil
}
