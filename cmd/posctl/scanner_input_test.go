package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/packterm/pos/drivers/scanner"
)

func evdevRecording(name string) string {
	return fmt.Sprintf("../../drivers/scanner/testdata/evdev/%s.ev%d", name, scanner.NativeWord*8)
}

// `scanner listen --input` replays a recorded keyboard scanner (an AZERTY one with a Tab
// suffix, and the autorepeat session) and shows each line as it was read.
func TestScannerListenKeyboardInput(t *testing.T) {
	t.Cleanup(func() {
		c, _, _ := root.Find([]string{"scanner", "listen"})
		for f, v := range map[string]string{"input": "", "port": "", "keymap": "us", "suffix": "CR", "count": "0"} {
			_ = c.Flags().Set(f, v)
		}
	})
	out, err := runDevices(t, "scanner", "listen", "--input", evdevRecording("fr-tab"), "--keymap", "fr", "--suffix", "tab")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"scanner connected at ", `text="0123456789" symbology=- kind=none of ours`, `text="TICKET-77"`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	out, err = runDevices(t, "scanner", "listen", "--input", evdevRecording("repeat"), "--keymap", "us", "--suffix", "enter")
	if err != nil || !strings.Contains(out, `text="12456"`) || strings.Count(out, `err="scanner: binary garbage"`) != 2 {
		t.Fatalf("%v\n%s", err, out)
	}
	// Read with the wrong layout, the digits come out as AZERTY's unshifted symbols.
	out, _ = runDevices(t, "scanner", "listen", "--input", evdevRecording("repeat"), "--keymap", "fr", "--suffix", "cr")
	if strings.Contains(out, `text="12456"`) || !strings.Contains(out, `text="&é'(`) {
		t.Fatalf("US scanner read as AZERTY:\n%s", out)
	}
	_, err = runDevices(t, "scanner", "listen", "--input", "usb-No_Such_Scanner-event-kbd")
	if err == nil || !strings.Contains(err.Error(), "input device not found") {
		t.Fatalf("missing device: %v", err)
	}
	if _, err = runDevices(t, "scanner", "listen", "--input", evdevRecording("repeat"), "--port", "/dev/null"); err == nil {
		t.Fatal("--port and --input together accepted")
	}
}
