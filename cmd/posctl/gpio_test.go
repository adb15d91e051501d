package main

import (
	"strings"
	"testing"

	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"
)

func TestDisplayTestEmulated(t *testing.T) {
	out, err := run(t, "display", "test", "--emulate", "--lcd", "20x4", "--conformance")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"|1>abcdefghijklmnop<1|",
		"|€ É È Ê À Ç Ù Â",
		"cursor underline at row 0 col 7",
		"display off, backlight on",
		"periph TextDisplay conformance test",
		"== read back: ok", // the emulated board wires R/W
		"display test done",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestIOTestEmulated(t *testing.T) {
	out, err := run(t, "io", "test", "--emulate")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{
		"ok   green LED", "pin GPIO5: on@0s off@100ms",
		"pin GPIO13: on@0s off@200ms on@300ms off@500ms",
		"pin GPIO12: on@0s off@100ms",
		"ok   OK button", "ok   CANCEL button", "ok   tamper switch      2 edges",
		"|TERMINÉ ", "io test done",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestIOTestNoGPIO(t *testing.T) {
	if _, err := host.Init(); err != nil {
		t.Fatal(err)
	}
	if gpioreg.ByName("GPIO25") != nil {
		t.Skip("this machine has a GPIO25: not the GPIO-less case")
	}
	_, err := run(t, "io", "test", "--profile", "rpi")
	if err == nil || !strings.Contains(err.Error(), "LCD RS GPIO25") || !strings.Contains(err.Error(), "--emulate") {
		t.Errorf("err = %v", err)
	}
}
