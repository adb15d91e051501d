package conntest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// IO is one exchange: the bytes the host wrote, then what it read before its next write.
type IO struct {
	W, R []byte
}

// Port is the byte link a driver uses (the method set of printer.Port; *serialport.Port has it).
type Port interface {
	io.Writer
	ReadContext(ctx context.Context, b []byte) (int, error)
	Discard()
}

// Record forwards to Port and records every exchange in Ops.
type Record struct {
	Port Port

	mu  sync.Mutex
	Ops []IO
}

var _ Port = (*Record)(nil)

// Write forwards b and starts a new exchange.
func (r *Record) Write(b []byte) (int, error) {
	n, err := r.Port.Write(b)
	r.mu.Lock()
	r.Ops = append(r.Ops, IO{W: append([]byte(nil), b[:n]...)})
	r.mu.Unlock()
	return n, err
}

// ReadContext forwards and records what was read.
func (r *Record) ReadContext(ctx context.Context, b []byte) (int, error) {
	n, err := r.Port.ReadContext(ctx, b)
	if n > 0 {
		r.mu.Lock()
		if len(r.Ops) == 0 {
			r.Ops = append(r.Ops, IO{})
		}
		last := &r.Ops[len(r.Ops)-1]
		last.R = append(last.R, b[:n]...)
		r.mu.Unlock()
	}
	return n, err
}

// Discard forwards.
func (r *Record) Discard() { r.Port.Discard() }

// Playback plays Ops back: each Write must match the next exchange's W, after which its R can
// be read. A mismatch fails the Write (and Close).
type Playback struct {
	Ops []IO

	mu    sync.Mutex
	next  int
	queue []byte
	wake  chan struct{}
	err   error
}

var _ Port = (*Playback)(nil)

func (p *Playback) signal() {
	if p.wake != nil {
		close(p.wake)
	}
	p.wake = make(chan struct{})
}

// Write checks b against the recording.
func (p *Playback) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return 0, p.err
	}
	if p.next == 0 && len(p.Ops) > 0 && len(p.Ops[0].W) == 0 { // device spoke first
		p.queue = append(p.queue, p.Ops[0].R...)
		p.next++
	}
	if p.next >= len(p.Ops) {
		p.err = fmt.Errorf("conntest: unexpected write %d: % X", p.next, b)
		return 0, p.err
	}
	op := p.Ops[p.next]
	if !bytes.Equal(op.W, b) {
		p.err = fmt.Errorf("conntest: write %d differs:\n got % X\nwant % X", p.next, b, op.W)
		return 0, p.err
	}
	p.next++
	p.queue = append(p.queue, op.R...)
	p.signal()
	return len(b), nil
}

// ReadContext returns recorded replies; with none left it blocks until ctx ends.
func (p *Playback) ReadContext(ctx context.Context, b []byte) (int, error) {
	for {
		p.mu.Lock()
		if len(p.queue) > 0 {
			n := copy(b, p.queue)
			p.queue = p.queue[n:]
			p.mu.Unlock()
			return n, nil
		}
		if p.wake == nil {
			p.wake = make(chan struct{})
		}
		wake := p.wake
		p.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// Discard drops replies not read yet.
func (p *Playback) Discard() {
	p.mu.Lock()
	p.queue = nil
	p.mu.Unlock()
}

// Close reports a mismatch or exchanges that were never played.
func (p *Playback) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return p.err
	}
	if p.next != len(p.Ops) {
		return fmt.Errorf("conntest: %d of %d exchanges not played", len(p.Ops)-p.next, len(p.Ops))
	}
	return nil
}

// Marshal writes ops as text: one "W hex" and one "R hex" line per exchange.
func Marshal(ops []IO) []byte {
	var b bytes.Buffer
	b.WriteString("# conntest v1: W = host to device, R = device to host (hex)\n")
	for _, op := range ops {
		fmt.Fprintf(&b, "W %s\nR %s\n", hex.EncodeToString(op.W), hex.EncodeToString(op.R))
	}
	return b.Bytes()
}

// Unmarshal reads what Marshal wrote; "#" lines are comments.
func Unmarshal(data []byte) ([]IO, error) {
	var ops []IO
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	line := 0
	wantR := false
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		kind, h, _ := strings.Cut(t, " ")
		v, err := hex.DecodeString(h)
		if err != nil {
			return nil, fmt.Errorf("conntest: line %d: %w", line, err)
		}
		switch {
		case kind == "W" && !wantR:
			if v == nil {
				v = []byte{}
			}
			ops = append(ops, IO{W: v})
			wantR = true
		case kind == "R" && wantR:
			ops[len(ops)-1].R = v
			wantR = false
		default:
			return nil, fmt.Errorf("conntest: line %d: unexpected %q", line, kind)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("conntest: %w", err)
	}
	if wantR {
		return nil, errors.New("conntest: last exchange has no R line")
	}
	return ops, nil
}
