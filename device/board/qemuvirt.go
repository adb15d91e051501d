package board

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/drivers/gpiosim"
)

// QemuVirtName is the profile of qemu's `virt` machine (scripts/image-test.sh): it has no
// header for our parts, so every GPIO part is emulated inside the terminal (the pin-level
// LCD emulator, recording LEDs, buzzer and drawer, released buttons, closed case) and what
// the panel shows is written to the serial console, one line per change:
//
//	display: |BIENVENUE           |SCANNEZ UN BILLET   |…|
//
// The scanner and the printer are real serial ports (virtio consoles, /dev/hvc1 and
// /dev/hvc2) whose other ends are the host's emulators.
const QemuVirtName = "qemu-virt"

// qemuVirt wires the emulated parts under the Raspberry Pi's pin names (only names: no
// pin is looked up on the machine).
func qemuVirt() Profile {
	return Profile{Name: QemuVirtName, Description: "qemu virt machine: parts emulated, display on the serial console",
		Pins: RaspberryPi.Pins}
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
	b.stopMirror = func() { cancel(); <-done }
	go func() {
		defer close(done)
		mirror(ctx, b, console)
	}()
	return b, nil
}

// mirror writes the panel's lines whenever they change, and once more when stopped.
func mirror(ctx context.Context, b *Board, w io.Writer) {
	last := ""
	show := func() {
		lines := b.Emulator.LCD.Visible()
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
