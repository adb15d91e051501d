//go:build !production || virt

package board

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/drivers/gpiosim"
)

// The qemu-virt board (QemuVirtName; scripts/image-test.sh), qemu's `virt` machine, has no
// header for our parts, so every GPIO part is emulated inside the terminal (the pin-level
// LCD emulator, recording LEDs, buzzer and drawer, released buttons, closed case) and what
// the panel shows is written to the serial console, one line per change:
//
//	display: |BIENVENUE           |SCANNEZ UN BILLET   |…|
//
// The scanner and the printer are real serial ports (virtio consoles, /dev/hvc0 and
// /dev/hvc1) whose other ends are the host's emulators. The buttons and the case switch
// are pressed from the host through a third virtio console, /dev/hvc2 (QemuVirtControl),
// one word a line: ok, cancel, tamper-open, tamper-close.

// QemuVirtControl is the port the qemu-virt board reads its button presses from.
const QemuVirtControl = "/dev/hvc2"

// pressTime is how long a button pressed from the control port is held (the drivers
// debounce: a press must last).
const pressTime = 150 * time.Millisecond

// labProfiles are the boards only a build with the board emulator knows: the lab's (no
// production tag) and the qemu image's (-tags production,virt).
func labProfiles() []Profile { return []Profile{qemuVirt()} }

// qemuVirt wires the emulated parts under the Raspberry Pi's pin names (only names: no
// pin is looked up on the machine).
func qemuVirt() Profile {
	return Profile{Name: QemuVirtName, Description: "qemu virt machine: parts emulated, display on the serial console",
		Pins: RaspberryPi().Pins}
}

// mirrorPeriod is how often the console mirror looks at the emulated panel.
const mirrorPeriod = 100 * time.Millisecond

// openConsoleBoard opens the emulated board and starts writing the panel to console.
func openConsoleBoard(prof Profile, cfg Config, console io.Writer) (*Board, error) {
	geo, err := ParseGeometry(cfg.Display)
	if err != nil {
		return nil, err
	}
	if cfg.Clock == nil {
		cfg.Clock = clockwork.NewRealClock()
	}
	cfg.DisplayClock = gpiosim.NewClock() // the panel's datasheet waits cost no real time
	b, err := openEmulated(prof, geo, cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var port *os.File
	if f, err := os.OpenFile(QemuVirtControl, os.O_RDONLY|syscall.O_NOCTTY, 0); err == nil {
		port = f
		go func() { _ = control(ctx, b.Emulator, f, cfg.Clock) }()
	}
	b.stopMirror = func() {
		cancel()
		if port != nil {
			port.Close()
		}
		<-done
	}
	go func() {
		defer close(done)
		mirror(ctx, b, console)
	}()
	return b, nil
}

// ErrControl marks a line of the control port that names no action.
var ErrControl = errors.New("board: unknown control word")

// controlAction reads one line of the control port: the contact and what to do with it
// (press: active then released after pressTime).
func controlAction(line string) (c Contact, active, press bool, err error) {
	switch strings.TrimSpace(line) {
	case "ok":
		return ContactOK, true, true, nil
	case "cancel":
		return ContactCancel, true, true, nil
	case "tamper-open":
		return ContactTamper, true, false, nil
	case "tamper-close":
		return ContactTamper, false, false, nil
	}
	return 0, false, false, fmt.Errorf("%w: %q", ErrControl, clipWord(line))
}

func clipWord(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}

// control acts on each line read from r until it ends or ctx does.
func control(ctx context.Context, em *Emulator, r io.Reader, clk clockwork.Clock) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 256), 256)
	for sc.Scan() {
		c, active, press, err := controlAction(sc.Text())
		if err != nil {
			continue // noise on the line: ignored
		}
		em.Set(c, active)
		if press {
			select {
			case <-ctx.Done():
			case <-clk.After(pressTime):
			}
			em.Set(c, false)
		}
	}
	return sc.Err()
}

// mirror writes the panel's lines whenever they change, and once more when stopped.
func mirror(ctx context.Context, b *Board, w io.Writer) {
	last := ""
	show := func() {
		lines := b.Emulator.LCD.Screen()
		s := "|" + strings.Join(lines, "|") + "|"
		if s != last {
			last = s
			fmt.Fprintf(w, "display: %s\n", s)
		}
	}
	t := time.NewTicker(mirrorPeriod)
	defer t.Stop()
	for {
		show()
		select {
		case <-ctx.Done():
			show()
			return
		case <-t.C:
		}
	}
}
