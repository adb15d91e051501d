package serialemul

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/creack/pty"
	"golang.org/x/term"
)

// ErrUnplugged is returned by Write while the device is unplugged.
var ErrUnplugged = errors.New("serialemul: device unplugged")

// Device is one emulated serial device. Its Handler sees every chunk the driver writes.
type Device struct {
	link string

	mu      sync.Mutex
	master  *os.File
	slave   *os.File
	gen     int
	readers sync.WaitGroup
	handler func(b []byte)
}

// New creates the device plugged in, reachable at link (created; must not exist). handler is
// called from a single goroutine with each chunk the driver writes; it may call Write.
func New(link string, handler func(b []byte)) (*Device, error) {
	d := &Device{link: link, handler: handler}
	if err := d.Replug(); err != nil {
		return nil, err
	}
	return d, nil
}

// Path is the stable path a driver opens.
func (d *Device) Path() string { return d.link }

// Plugged reports whether the device is present.
func (d *Device) Plugged() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.master != nil
}

// Replug plugs the device in (no-op when present).
func (d *Device) Replug() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.master != nil {
		return nil
	}
	m, s, err := pty.Open()
	if err != nil {
		return fmt.Errorf("serialemul: open pty: %w", err)
	}
	// Raw before any byte flows: the default line discipline would echo and translate CR.
	if _, err := term.MakeRaw(int(s.Fd())); err != nil {
		m.Close()
		s.Close()
		return fmt.Errorf("serialemul: raw mode: %w", err)
	}
	tmp := d.link + ".new"
	_ = os.Remove(tmp)
	if err := os.Symlink(s.Name(), tmp); err != nil {
		m.Close()
		s.Close()
		return fmt.Errorf("serialemul: link: %w", err)
	}
	// Not through atomicfile: the link names a pty of this run, nothing to keep across a
	// crash; the rename only swaps it in one step for a driver that reopens it.
	if err := os.Rename(tmp, filepath.Clean(d.link)); err != nil {
		m.Close()
		s.Close()
		return fmt.Errorf("serialemul: link: %w", err)
	}
	d.master, d.slave = m, s
	d.gen++
	d.readers.Add(1)
	go d.read(m)
	return nil
}

// Unplug makes the device vanish: link removed, pty closed. It waits for the reader to stop.
func (d *Device) Unplug() {
	d.mu.Lock()
	m, s := d.master, d.slave
	d.master, d.slave = nil, nil
	if m != nil {
		_ = os.Remove(d.link)
		_ = s.Close()
		_ = m.Close()
	}
	d.mu.Unlock()
	d.readers.Wait()
}

// Close unplugs the device for good.
func (d *Device) Close() error {
	d.Unplug()
	return nil
}

// Write sends b to the driver (device to host).
func (d *Device) Write(b []byte) (int, error) {
	d.mu.Lock()
	m := d.master
	d.mu.Unlock()
	if m == nil {
		return 0, ErrUnplugged
	}
	return m.Write(b)
}

func (d *Device) read(m *os.File) {
	defer d.readers.Done()
	buf := make([]byte, 4096)
	for {
		n, err := m.Read(buf)
		if n > 0 && d.handler != nil {
			d.handler(append([]byte(nil), buf[:n]...))
		}
		if err != nil {
			// os.ErrClosed after Unplug; EIO cannot happen while we hold our own slave open.
			return
		}
	}
}
