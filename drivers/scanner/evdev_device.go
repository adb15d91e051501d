package scanner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/drivers/serialport"
)

// ByIDDir is where udev names input devices after their USB identity.
const ByIDDir = "/dev/input/by-id"

// ErrNoInput: the configured input device is not there; the error lists the candidates.
var ErrNoInput = errors.New("scanner: input device not found")

// KeyboardConfig says which keyboard scanner to read.
type KeyboardConfig struct {
	// Input is the device: a name in Dir (e.g. "usb-Datalogic_Gryphon-event-kbd", the
	// /dev/input/by-id link udev makes, stable across replugs and ports) or a path. It is
	// resolved again at each reconnection, so the scanner may come back as another eventN.
	Input string
	// Dir of the names ("": ByIDDir).
	Dir    string
	Keymap Keymap
	// Word is the size of a long in the event records (0: this machine's; 4 or 8).
	Word int
	// MinBackoff and MaxBackoff bound the wait between reopen attempts (0: 100 ms, 5 s).
	MinBackoff, MaxBackoff time.Duration
	Clock                  clockwork.Clock
	Logger                 *slog.Logger
}

// Keyboard reads a USB keyboard-wedge scanner through Linux evdev and hands what it types to
// Serial (NewKeyboardScanner) as a serial scanner's bytes, so framing, AIM parsing and
// de-duplication are shared. It takes an exclusive grab (EVIOCGRAB) of the device. When the
// device goes (a read fails with ENODEV, or ends), it says so and reopens it by name with
// exponential backoff on the injected clock. A regular file is a recording: replayed without
// grab, its end is the end of the stream (io.EOF). A FIFO is a live replay: no grab, its end
// is an unplug. Only one goroutine may call Next.
type Keyboard struct {
	cfg  KeyboardConfig
	path string
	dec  *EventDecoder
	keys *KeyDecoder
	buf  []byte
	evs  []InputEvent

	mu        sync.Mutex
	f         *os.File
	recording bool
	closed    bool
	done      chan struct{}

	backoff time.Duration
	warned  bool
}

var _ Port = (*Keyboard)(nil)

// NewKeyboard returns a reader of cfg.Input; it opens the device at the first Next.
func NewKeyboard(cfg KeyboardConfig) (*Keyboard, error) {
	if cfg.Dir == "" {
		cfg.Dir = ByIDDir
	}
	if cfg.Input == "" {
		return nil, errors.New("scanner: keyboard: no input device")
	}
	if cfg.MinBackoff <= 0 {
		cfg.MinBackoff = 100 * time.Millisecond
	}
	if cfg.MaxBackoff < cfg.MinBackoff {
		cfg.MaxBackoff = max(5*time.Second, cfg.MinBackoff)
	}
	if cfg.Clock == nil {
		cfg.Clock = clockwork.NewRealClock()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	dec, err := NewEventDecoder(cfg.Word)
	if err != nil {
		return nil, err
	}
	return &Keyboard{cfg: cfg, path: inputPath(cfg.Input, cfg.Dir), dec: dec, keys: NewKeyDecoder(cfg.Keymap),
		buf: make([]byte, 64*dec.Size()), done: make(chan struct{})}, nil
}

func inputPath(input, dir string) string {
	if strings.ContainsRune(input, '/') {
		return input
	}
	return filepath.Join(dir, input)
}

// ResolveInput returns the path of input (a name in dir or a path) if it exists, or an
// ErrNoInput error that lists the keyboard devices present in dir.
func ResolveInput(input, dir string) (string, error) {
	if dir == "" {
		dir = ByIDDir
	}
	p := inputPath(input, dir)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%w: %s (%v); %s", ErrNoInput, p, err, candidates(dir))
	}
	return p, nil
}

// candidates names the keyboard devices in dir ("…-event-kbd"), or everything there.
func candidates(dir string) string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Sprintf("no devices listed: %v", err)
	}
	var kbd, all []string
	for _, e := range ents {
		all = append(all, e.Name())
		if strings.HasSuffix(e.Name(), "-event-kbd") {
			kbd = append(kbd, e.Name())
		}
	}
	if len(kbd) == 0 {
		kbd = all
	}
	if len(kbd) == 0 {
		return "no devices in " + dir
	}
	slices.Sort(kbd)
	return "candidates in " + dir + ": " + strings.Join(kbd, ", ")
}

// Path is the configured device path (the by-id link).
func (k *Keyboard) Path() string { return k.path }

// Source names the scanner in Scan.Source.
func (k *Keyboard) Source() string { return "keyboard:" + k.path }

// Repeats counts the autorepeat events dropped so far (read it where Next is called).
func (k *Keyboard) Repeats() int { return k.keys.Repeats() }

// Close releases the device (and its grab); a blocked Next returns.
func (k *Keyboard) Close() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed {
		return nil
	}
	k.closed = true
	close(k.done)
	if k.f != nil {
		err := k.f.Close()
		k.f = nil
		return err
	}
	return nil
}

// Next returns the next bytes typed, or a state change (Data nil): Connected once the device
// is open and grabbed, Disconnected (Err says why) when it went away.
func (k *Keyboard) Next(ctx context.Context) (serialport.Packet, error) {
	for {
		k.mu.Lock()
		f, closed := k.f, k.closed
		k.mu.Unlock()
		if closed {
			return serialport.Packet{}, fmt.Errorf("scanner: %s: %w", k.path, os.ErrClosed)
		}
		if f == nil {
			opened, err := k.connect(ctx)
			if err != nil {
				return serialport.Packet{}, err
			}
			if opened {
				return serialport.Packet{State: serialport.Connected}, nil
			}
			continue
		}
		n, err := k.read(ctx, f)
		if n > 0 {
			k.evs = k.dec.Feed(k.evs[:0], k.buf[:n])
			if data := k.keys.Feed(nil, k.evs); len(data) > 0 {
				return serialport.Packet{Data: data}, nil
			}
			continue
		}
		if ctx.Err() != nil {
			return serialport.Packet{}, ctx.Err()
		}
		if err == nil {
			continue
		}
		k.drop()
		if errors.Is(err, io.EOF) && k.recording {
			return serialport.Packet{}, io.EOF
		}
		if errors.Is(err, os.ErrClosed) {
			continue // Close raced the read
		}
		k.cfg.Logger.Warn("scanner: input device lost", "input", k.path, "err", err)
		return serialport.Packet{State: serialport.Disconnected, Err: fmt.Errorf("scanner: %s: %w", k.path, err)}, nil
	}
}

// connect tries to open the device once, after the backoff if the last try failed; k.f is
// set on success, which opened reports (Next must not read k.f unlocked: Close clears it).
// It returns an error only when ctx ends or the keyboard is closed.
func (k *Keyboard) connect(ctx context.Context) (opened bool, err error) {
	if k.backoff > 0 {
		t := k.cfg.Clock.NewTimer(k.backoff)
		select {
		case <-t.Chan():
		case <-ctx.Done():
			t.Stop()
			return false, ctx.Err()
		case <-k.done:
			t.Stop()
			return false, fmt.Errorf("scanner: %s: %w", k.path, os.ErrClosed)
		}
	}
	f, rec, oerr := openInput(k.path)
	if oerr != nil {
		if !k.warned {
			k.cfg.Logger.Warn("scanner: cannot open input device, retrying", "input", k.path, "err", oerr, "found", candidates(k.cfg.Dir))
			k.warned = true
		}
		k.backoff = min(max(2*k.backoff, k.cfg.MinBackoff), k.cfg.MaxBackoff)
		return false, nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed {
		f.Close()
		return false, fmt.Errorf("scanner: %s: %w", k.path, os.ErrClosed)
	}
	k.f, k.recording, k.backoff, k.warned = f, rec, 0, false
	k.dec.Reset()
	k.keys.Reset()
	real, _ := filepath.EvalSymlinks(k.path)
	k.cfg.Logger.Info("scanner: input device open", "input", k.path, "device", real, "grabbed", !rec && isCharDevice(f), "keymap", k.cfg.Keymap.String())
	return true, nil
}

func (k *Keyboard) drop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.f != nil {
		k.f.Close()
		k.f = nil
	}
}

// read blocks until events arrive, ctx ends (the read deadline is moved to the past) or the
// device fails.
func (k *Keyboard) read(ctx context.Context, f *os.File) (int, error) {
	_ = f.SetReadDeadline(time.Time{}) // not pollable (a regular file): reads never block
	stop := context.AfterFunc(ctx, func() { _ = f.SetReadDeadline(time.Unix(1, 0)) })
	defer stop()
	n, err := f.Read(k.buf)
	if n == 0 && err == nil {
		err = io.EOF
	}
	return n, err
}

// openInput opens an input device, a FIFO or a recording; the checks are made on the file
// opened, not on the name. recording is true for a regular file.
func openInput(path string) (f *os.File, recording bool, err error) {
	f, err = os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, false, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, false, err
	}
	switch m := st.Mode(); {
	case m.IsRegular():
		return f, true, nil
	case m&os.ModeNamedPipe != 0:
		return f, false, nil
	case m&os.ModeCharDevice != 0:
		if err := grab(f); err != nil {
			f.Close()
			return nil, false, err
		}
		return f, false, nil
	}
	f.Close()
	return nil, false, fmt.Errorf("scanner: %s is not an input device", path)
}

func isCharDevice(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// NewKeyboardScanner reads scans from a keyboard scanner: framing (Enter or Tab suffix),
// AIM parsing and de-duplication as for a serial scanner.
func NewKeyboardScanner(kb *Keyboard, cfg Config) *Serial { return NewSerial(kb, cfg) }
