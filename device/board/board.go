package board

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"

	"github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/drivers/gpioio"
)

// ErrMissingPins is returned by Open when pins of the profile do not exist on this
// machine: not that board, or its GPIO driver did not load. Config.Emulate runs without.
var ErrMissingPins = errors.New("GPIO not found on this machine")

// Config selects and adjusts the board.
type Config struct {
	// Profile is the wiring's name (default "rpi").
	Profile string
	// Display is the panel's geometry, "16x2" or "20x4" (default "20x4").
	Display string
	// Pins overrides single entries of the profile's map.
	Pins PinMap
	// Emulate wires the drivers to emulated parts instead of the board's pins.
	Emulate bool
	// Clock times the drivers (and, emulated, the emulators and fake contacts); nil means
	// the real clock.
	Clock clockwork.Clock
	// DisplayClock times the display driver and, emulated, the LCD emulator; nil means
	// Clock. An emulated terminal gives it a virtual clock (gpiosim) so the panel's
	// datasheet waits cost no real time.
	DisplayClock clockwork.Clock
	// DrawerPulse is the drawer solenoid's pulse (default gpioio.DefaultDrawerPulse).
	DrawerPulse time.Duration
	// Logger gets the inputs' logs (tamper switch edges); nil discards them.
	Logger *slog.Logger
}

// Board is the terminal's GPIO side, ready to use.
type Board struct {
	Profile Profile
	Display *display.Dev
	Green   *gpioio.LED
	Red     *gpioio.LED
	Buzzer  *gpioio.Buzzer
	Drawer  *gpioio.Drawer
	OK      *gpioio.Button
	Cancel  *gpioio.Button
	Tamper  *gpioio.Tamper
	// Emulator is set on an emulated board: the parts a test or a technician's
	// `--emulate` run looks at and presses.
	Emulator *Emulator

	stopMirror func() // the qemu-virt console mirror, stopped by Close
}

// ParseGeometry reads "16x2" or "20x4".
func ParseGeometry(s string) (display.Geometry, error) {
	switch strings.ToLower(s) {
	case "16x2":
		return display.LCD16x2, nil
	case "", "20x4":
		return display.LCD20x4, nil
	}
	return display.Geometry{}, fmt.Errorf("board: display %q: want 16x2 or 20x4", s)
}

// Open builds the board described by cfg. On a real board it calls host.Init and looks
// every pin up by name; a machine without those GPIOs (host.Init succeeds there, the pins
// are simply absent) gets an error naming each missing pin.
func Open(cfg Config) (*Board, error) {
	name := cfg.Profile
	if name == "" {
		name = RaspberryPi().Name
	}
	prof, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	prof.Pins = prof.Pins.merge(cfg.Pins)
	geo, err := ParseGeometry(cfg.Display)
	if err != nil {
		return nil, err
	}
	if cfg.Clock == nil {
		cfg.Clock = clockwork.NewRealClock()
	}
	if cfg.DisplayClock == nil {
		cfg.DisplayClock = cfg.Clock
	}
	if prof.Name == QemuVirtName {
		return openConsoleBoard(prof, cfg, os.Stderr)
	}
	if cfg.Emulate {
		return openEmulated(prof, geo, cfg)
	}
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("board: %s: host init: %w", prof.Name, err)
	}
	pins, err := lookupPins(prof, gpioreg.ByName)
	if err != nil {
		return nil, err
	}
	return build(prof, geo, cfg, pins)
}

// parts are the resolved pins, by role.
type parts struct {
	rs, e, d4, d5, d6, d7, bl  gpio.PinOut
	rw                         gpio.PinOut // nil: R/W tied to ground
	green, red, buzzer, drawer gpio.PinOut
	ok, cancel, tamper         gpio.PinIn
}

// lookupPins resolves every pin of prof with byName and names all the missing ones.
func lookupPins(prof Profile, byName func(string) gpio.PinIO) (parts, error) {
	var missing []string
	get := func(role, name string) gpio.PinIO {
		if name == "" {
			if role != "LCD backlight" && role != "LCD R/W" { // optional parts
				missing = append(missing, fmt.Sprintf("%s (no pin in the profile)", role))
			}
			return nil
		}
		p := byName(name)
		if p == nil {
			missing = append(missing, fmt.Sprintf("%s %s", role, name))
		}
		return p
	}
	var p parts
	for _, e := range prof.Pins.entries(&p) {
		pin := get(e.role, e.name)
		if pin == nil {
			continue
		}
		if e.out != nil {
			*e.out = pin
		} else {
			*e.in = pin
		}
	}
	if len(missing) > 0 {
		return parts{}, fmt.Errorf("board: %s (%s): %w: %s", prof.Name, prof.Description, ErrMissingPins, strings.Join(missing, ", "))
	}
	return p, nil
}

// build makes the drivers on resolved pins.
func build(prof Profile, geo display.Geometry, cfg Config, p parts) (*Board, error) {
	b := &Board{Profile: prof}
	var err error
	if b.Display, err = display.New(display.Pins{RS: p.rs, E: p.e, D4: p.d4, D5: p.d5, D6: p.d6, D7: p.d7, Backlight: p.bl, RW: p.rw},
		display.Opts{Geometry: geo, Clock: cfg.DisplayClock}); err != nil {
		return nil, fmt.Errorf("board: %w", err)
	}
	if p.bl != nil {
		if err := b.Display.SetBacklight(true); err != nil {
			return nil, fmt.Errorf("board: %w", err)
		}
	}
	var errs []error
	add := func(err error) { errs = append(errs, err) }
	var e error
	b.Green, e = gpioio.NewLED("green", p.green, false)
	add(e)
	b.Red, e = gpioio.NewLED("red", p.red, false)
	add(e)
	b.Buzzer, e = gpioio.NewBuzzer(p.buzzer, false, cfg.Clock)
	add(e)
	b.Drawer, e = gpioio.NewDrawer(p.drawer, false, cfg.DrawerPulse, cfg.Clock)
	add(e)
	in := gpioio.InputOpts{Clock: cfg.Clock, Logger: cfg.Logger}
	b.OK, e = gpioio.NewButton("ok", p.ok, in)
	add(e)
	b.Cancel, e = gpioio.NewButton("cancel", p.cancel, in)
	add(e)
	b.Tamper, e = gpioio.NewTamper(p.tamper, gpioio.InputOpts{ActiveHigh: true, Pull: gpio.PullUp, Clock: cfg.Clock, Logger: cfg.Logger})
	add(e)
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("board: %w", err)
	}
	return b, nil
}

// Run watches the buttons and the tamper switch until ctx is cancelled, then returns
// once every watcher has stopped.
func (b *Board) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i, run := range []func(context.Context) error{b.OK.Run, b.Cancel.Run, b.Tamper.Run} {
		wg.Go(func() { errs[i] = run(ctx) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Close leaves the board safe: LEDs off, display and backlight off (the drawer and the
// buzzer are never left on by their drivers).
func (b *Board) Close() error {
	err := errors.Join(b.Green.Set(false), b.Red.Set(false), b.Display.Halt())
	if b.stopMirror != nil {
		b.stopMirror()
	}
	return err
}
