package serialport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/tarm/serial"
)

// ErrDisconnected is returned by Write while the device is absent.
var ErrDisconnected = errors.New("serialport: device disconnected")

// ErrClosed is returned once the Port has been closed.
var ErrClosed = errors.New("serialport: port closed")

// State is the connection state of a Port.
type State int

// Connection states.
const (
	Disconnected State = iota
	Connected
)

func (s State) String() string {
	if s == Connected {
		return "connected"
	}
	return "disconnected"
}

// Packet is what Next delivers: received bytes, or a change of connection state (Data nil).
// State changes are delivered in order with the data, so a consumer can drop a partial frame
// that straddles an unplug.
type Packet struct {
	Data  []byte
	State State // meaningful when Data is nil
	Err   error // why the device was lost, on a Disconnected packet
}

// Port is a serial device kept open across unplug and replug. Read, ReadContext and Next are
// for a single consumer; Write may be called concurrently with them.
type Port struct {
	cfg     Config
	packets chan Packet
	done    chan struct{}
	stopped chan struct{}
	once    sync.Once

	mu        sync.Mutex
	sp        *serial.Port  // nil while disconnected
	connected chan struct{} // closed while connected, replaced on disconnect
	gone      chan struct{} // closed while disconnected, replaced on connect
	lost      error         // set by Write when it sees the device gone

	rmu     sync.Mutex
	pending []byte
}

// Open validates cfg and starts keeping the device open in the background. It does not fail
// when the device is absent: the Port reports Disconnected and keeps retrying.
func Open(cfg Config) (*Port, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	p := &Port{
		cfg:       cfg,
		packets:   make(chan Packet, 64),
		done:      make(chan struct{}),
		stopped:   make(chan struct{}),
		connected: make(chan struct{}),
		gone:      make(chan struct{}),
	}
	close(p.gone)
	go p.run()
	return p, nil
}

// Path is the configured device path.
func (p *Port) Path() string { return p.cfg.Path }

// Connected reports whether the device is open now.
func (p *Port) Connected() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sp != nil
}

// WaitConnected blocks until the device is open, ctx ends or the Port is closed.
func (p *Port) WaitConnected(ctx context.Context) error {
	p.mu.Lock()
	ch := p.connected
	p.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("serialport: wait for %s: %w", p.cfg.Path, ctx.Err())
	case <-p.done:
		return ErrClosed
	}
}

// WaitDisconnected blocks until the device is absent, ctx ends or the Port is closed.
func (p *Port) WaitDisconnected(ctx context.Context) error {
	p.mu.Lock()
	ch := p.gone
	p.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("serialport: wait for %s to go: %w", p.cfg.Path, ctx.Err())
	case <-p.done:
		return ErrClosed
	}
}

// Write sends b to the device. It fails with ErrDisconnected (wrapped) when the device is absent
// or vanishes during the write; the Port then reconnects in the background.
func (p *Port) Write(b []byte) (int, error) {
	p.mu.Lock()
	sp := p.sp
	p.mu.Unlock()
	select {
	case <-p.done:
		return 0, ErrClosed
	default:
	}
	if sp == nil {
		return 0, fmt.Errorf("serialport: write %s: %w", p.cfg.Path, ErrDisconnected)
	}
	n, err := sp.Write(b)
	if err != nil {
		p.mu.Lock()
		if p.lost == nil {
			p.lost = err
		}
		p.mu.Unlock()
		return n, fmt.Errorf("serialport: write %s: %v: %w", p.cfg.Path, err, ErrDisconnected)
	}
	return n, nil
}

// Next returns the next packet: data or a state change.
func (p *Port) Next(ctx context.Context) (Packet, error) {
	select {
	case pk := <-p.packets:
		return pk, nil
	case <-ctx.Done():
		return Packet{}, ctx.Err()
	case <-p.stopped:
		// Drain what the reader delivered before stopping.
		select {
		case pk := <-p.packets:
			return pk, nil
		default:
			return Packet{}, ErrClosed
		}
	}
}

// ReadContext reads received bytes, blocking until some arrive or ctx ends; state changes
// are skipped. After Close it returns io.EOF.
func (p *Port) ReadContext(ctx context.Context, b []byte) (int, error) {
	p.rmu.Lock()
	defer p.rmu.Unlock()
	for len(p.pending) == 0 {
		pk, err := p.Next(ctx)
		if errors.Is(err, ErrClosed) {
			return 0, io.EOF
		}
		if err != nil {
			return 0, err
		}
		p.pending = pk.Data
	}
	n := copy(b, p.pending)
	p.pending = p.pending[n:]
	return n, nil
}

// Read implements io.Reader on ReadContext with no deadline.
func (p *Port) Read(b []byte) (int, error) { return p.ReadContext(context.Background(), b) }

// Discard drops every packet received so far and not yet read (e.g. stale replies). State
// packets go too: a consumer that uses Discard asks Connected instead.
func (p *Port) Discard() {
	p.rmu.Lock()
	defer p.rmu.Unlock()
	p.pending = nil
	for {
		select {
		case <-p.packets:
		default:
			return
		}
	}
}

// Close stops the background reader and closes the device. It returns within about one
// ReadTimeout.
func (p *Port) Close() error {
	p.once.Do(func() { close(p.done) })
	<-p.stopped
	return nil
}

// deliver hands a packet to the consumer; false when the Port is closing.
func (p *Port) deliver(pk Packet) bool {
	select {
	case p.packets <- pk:
		return true
	case <-p.done:
		return false
	}
}

func (p *Port) run() {
	defer close(p.stopped)
	log := p.cfg.Logger
	backoff := p.cfg.MinBackoff
	failures := 0
	for {
		sp, info, err := p.open()
		if err != nil {
			// Say why once (absent, permission denied…), then quietly keep trying.
			if failures == 0 {
				log.Warn("serialport: cannot open device, retrying", "err", err)
			} else {
				log.Debug("serialport: open failed", "err", err, "retry_in", backoff)
			}
			failures++
			select {
			case <-p.cfg.Clock.After(backoff):
			case <-p.done:
				return
			}
			backoff = min(backoff*2, p.cfg.MaxBackoff)
			continue
		}
		backoff, failures = p.cfg.MinBackoff, 0
		p.mu.Lock()
		p.sp, p.lost = sp, nil
		close(p.connected)
		p.gone = make(chan struct{})
		p.mu.Unlock()
		log.Info("serialport: device connected")
		if !p.deliver(Packet{State: Connected}) {
			p.drop(sp)
			return
		}
		cause := p.readLoop(sp, info)
		p.drop(sp)
		if cause == nil { // closing
			return
		}
		log.Warn("serialport: device lost", "err", cause)
		if !p.deliver(Packet{State: Disconnected, Err: cause}) {
			return
		}
	}
}

func (p *Port) open() (*serial.Port, os.FileInfo, error) {
	info, err := os.Stat(p.cfg.Path)
	if err != nil {
		return nil, nil, err
	}
	sp, err := serial.OpenPort(&serial.Config{Name: p.cfg.Path, Baud: p.cfg.Baud, ReadTimeout: p.cfg.ReadTimeout})
	if err != nil {
		return nil, nil, err
	}
	return sp, info, nil
}

// drop forgets and closes sp (only the reader goroutine calls it, so no Read is pending).
func (p *Port) drop(sp *serial.Port) {
	p.mu.Lock()
	p.sp = nil
	p.connected = make(chan struct{})
	close(p.gone)
	p.mu.Unlock()
	_ = sp.Close()
}

// quickEOFs is how many consecutive (0, EOF) reads returning well before the read timeout mean
// a hung-up line (a timeout proper takes the whole VTIME).
const quickEOFs = 3

// readLoop reads until the device is lost (returns why) or the Port closes (returns nil).
func (p *Port) readLoop(sp *serial.Port, info os.FileInfo) error {
	buf := make([]byte, 4096)
	quick := 0
	for {
		select {
		case <-p.done:
			return nil
		default:
		}
		p.mu.Lock()
		lost := p.lost
		p.mu.Unlock()
		if lost != nil {
			return lost
		}
		start := time.Now() // kernel timing (VTIME), not the injectable clock
		n, err := sp.Read(buf)
		if n > 0 {
			quick = 0
			if !p.deliver(Packet{Data: append([]byte(nil), buf[:n]...)}) {
				return nil
			}
			continue
		}
		switch {
		case err == nil || errors.Is(err, io.EOF):
			// A timeout, or a hang-up: tell them apart by the node and by timing.
			now, serr := os.Stat(p.cfg.Path)
			if serr != nil {
				return fmt.Errorf("device node gone: %w", serr)
			}
			if !os.SameFile(info, now) {
				return errors.New("device node replaced")
			}
			if time.Since(start) < p.cfg.ReadTimeout/2 {
				quick++
				if quick >= quickEOFs {
					return errors.New("line hung up")
				}
			} else {
				quick = 0
			}
		default:
			return err
		}
	}
}
