package board_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/host/v3"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/drivers/gpiosim"
)

func TestNoGPIONamesMissingPins(t *testing.T) {
	if _, err := host.Init(); err != nil {
		t.Fatal(err)
	}
	if gpioreg.ByName("GPIO25") != nil {
		t.Skip("this machine has a GPIO25: not the GPIO-less case")
	}
	_, err := board.Open(board.Config{Profile: "rpi"})
	if err == nil {
		t.Fatal("Open succeeded without GPIO")
	}
	if !errors.Is(err, board.ErrMissingPins) {
		t.Errorf("error %v is not ErrMissingPins", err)
	}
	for _, want := range []string{"LCD RS GPIO25", "LCD D7 GPIO17", "OK button GPIO20", "tamper switch GPIO16"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
}

// testPins registers gpiotest pins under unique names in gpioreg, as a board's GPIO
// driver would, and returns a map using them; skip leaves some out.
func testPins(t *testing.T, prefix string, skip ...string) board.PinMap {
	clk := gpiosim.NewClock()
	reg := func(role string) string {
		name := prefix + role
		for _, s := range skip {
			if s == role {
				return name
			}
		}
		p := &gpiotest.Pin{N: name, Num: -1, Clock: clk, EdgesChan: make(chan gpio.Level, 4)}
		if err := gpioreg.Register(p); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = gpioreg.Unregister(name) })
		return name
	}
	return board.PinMap{
		LCDRS: reg("RS"), LCDE: reg("E"), LCDD4: reg("D4"), LCDD5: reg("D5"), LCDD6: reg("D6"), LCDD7: reg("D7"),
		LCDBacklight: reg("BL"), LEDGreen: reg("GREEN"), LEDRed: reg("RED"), Buzzer: reg("BUZZ"), Drawer: reg("DRAWER"),
		ButtonOK: reg("OK"), ButtonCancel: reg("CANCEL"), Tamper: reg("TAMPER"),
	}
}

func TestRealPathThroughGpioreg(t *testing.T) {
	pins := testPins(t, "T1_")
	b, err := board.Open(board.Config{Profile: "rpi", Display: "16x2", Pins: pins, Clock: gpiosim.NewClock()})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Green.Set(true); err != nil {
		t.Fatal(err)
	}
	if gpioreg.ByName("T1_GREEN").Read() != gpio.High {
		t.Error("green LED pin not high")
	}
	if b.Display.Cols() != 16 || b.Emulator != nil {
		t.Errorf("display %s, emulator %v", b.Display, b.Emulator)
	}
	if b.Display.CanCheck() {
		t.Error("R/W wired without an LCD R/W pin")
	}
	if err := b.Close(); err != nil {
		t.Error(err)
	}

	// Two pins absent: both named, nothing else.
	pins = testPins(t, "T2_", "E", "TAMPER")
	_, err = board.Open(board.Config{Pins: pins, Clock: gpiosim.NewClock()})
	if err == nil || !errors.Is(err, board.ErrMissingPins) || !strings.HasSuffix(err.Error(), ": LCD E T2_E, tamper switch T2_TAMPER") {
		t.Errorf("err = %v", err)
	}
}

// TestLCDRWPin: an LCD R/W pin in the map is looked up and handed to the display driver,
// which can then check the panel; on these fake pins nothing answers (the lines read high
// through the pull-ups), so the check says the panel is not responding.
func TestLCDRWPin(t *testing.T) {
	pins := testPins(t, "T3_")
	rw := &gpiotest.Pin{N: "T3_RW", Num: -1}
	if err := gpioreg.Register(rw); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = gpioreg.Unregister("T3_RW") })
	pins.LCDRW = "T3_RW"
	b, err := board.Open(board.Config{Display: "16x2", Pins: pins, Clock: gpiosim.NewClock()})
	if err != nil {
		t.Fatal(err)
	}
	if !b.Display.CanCheck() {
		t.Error("CanCheck false with an LCD R/W pin")
	}
	if err := b.Display.Check(); !errors.Is(err, display.ErrNotResponding) {
		t.Errorf("check with no panel on the pins: %v", err)
	}
	if rw.Read() != gpio.Low {
		t.Error("R/W left high")
	}

	pins = testPins(t, "T4_")
	pins.LCDRW = "T4_NONE"
	if _, err := board.Open(board.Config{Pins: pins, Clock: gpiosim.NewClock()}); !errors.Is(err, board.ErrMissingPins) || !strings.HasSuffix(err.Error(), ": LCD R/W T4_NONE") {
		t.Errorf("absent R/W pin: %v", err)
	}
}

func TestConfigErrors(t *testing.T) {
	if _, err := board.Open(board.Config{Profile: "beaglebone", Emulate: true}); err == nil || !strings.Contains(err.Error(), "rpi") {
		t.Errorf("unknown profile: %v", err)
	}
	if _, err := board.Open(board.Config{Display: "40x2", Emulate: true}); err == nil {
		t.Error("40x2 accepted")
	}
}

// TestEmulatedBoard runs in a synctest bubble: the board uses the real clock, which is
// virtual there, so Run and its watchers are exercised as in production, without sleeping.
func TestEmulatedBoard(t *testing.T) { synctest.Test(t, testEmulatedBoard) }

func testEmulatedBoard(t *testing.T) {
	b, err := board.Open(board.Config{Emulate: true})
	if err != nil {
		t.Fatal(err)
	}
	em := b.Emulator
	if err := b.Display.Show("SCANNEZ UN CODE", "", "PAYÉ 20 €"); err != nil {
		t.Fatal(err)
	}
	if got := em.LCD.Visible(); strings.TrimSpace(got[0]) != "SCANNEZ UN CODE" || strings.TrimSpace(got[2]) != "PAY{É} 20 {€}" {
		t.Errorf("screen %q", got)
	}
	if !em.LCD.State().Backlight {
		t.Error("backlight off")
	}
	// The emulated panel has R/W wired: the display can be checked, and a dead panel is
	// noticed.
	if !b.Display.CanCheck() || em.LCD.RW == nil {
		t.Error("emulated display cannot be checked")
	}
	if err := b.Display.Check(); err != nil {
		t.Errorf("check of the emulated panel: %v", err)
	}
	em.LCD.SetDead(true)
	if err := b.Display.Check(); !errors.Is(err, display.ErrNotResponding) {
		t.Errorf("check of a dead emulated panel: %v", err)
	}
	em.LCD.SetDead(false)
	if err := b.Display.Init(); err != nil {
		t.Fatal(err)
	}
	if err := b.Display.Show("SCANNEZ UN CODE", "", "PAYÉ 20 €"); err != nil || b.Display.Check() != nil {
		t.Errorf("panel back: show %v, check %v", err, b.Display.Check())
	}
	_ = b.Red.Set(true)
	if em.Red.Read() != gpio.High {
		t.Error("red LED pin")
	}
	if err := b.Drawer.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	if h := em.Drawer.History(); len(h) != 3 || h[2].At.Sub(h[1].At) != 100*time.Millisecond {
		t.Errorf("drawer history %v", h)
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	em.OK.Press()
	time.Sleep(30 * time.Millisecond)
	synctest.Wait()
	if ev := <-b.OK.Events(); !ev.Active || ev.Input != "ok" || !b.OK.Pressed() {
		t.Errorf("event %v", ev)
	}
	em.Tamper.Press()
	synctest.Wait()
	if st := b.Tamper.State(); !st.Tripped || !st.Open {
		t.Errorf("tamper %+v", st)
	}
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
	if err := b.Close(); err != nil {
		t.Error(err)
	}
	if em.LCD.State().DisplayOn || em.Red.Read() != gpio.Low {
		t.Error("Close left the display or a LED on")
	}
	for _, err := range em.LCD.Errors() {
		t.Error(err)
	}
}
