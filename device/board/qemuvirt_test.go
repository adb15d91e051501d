//go:build !production || virt

package board

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/internal/syncbuf"
)

// TestQemuVirtConsoleDisplay: on the qemu-virt profile the parts are emulated and what
// the panel shows reaches the serial console (written at the latest when the board is
// closed), so a person or scripts/image-test.sh reads the screen on the console.
func TestQemuVirtConsoleDisplay(t *testing.T) {
	prof, err := Lookup(QemuVirtName)
	if err != nil {
		t.Fatal(err)
	}
	var console syncbuf.Buffer
	b, err := openConsoleBoard(prof, Config{Display: "16x2"}, &console)
	if err != nil {
		t.Fatal(err)
	}
	if b.Emulator == nil {
		t.Fatal("qemu-virt board is not emulated")
	}
	if err := b.Display.Show("AUCUN LOGICIEL", "APPEL TECHNICIEN"); err != nil {
		t.Fatal(err)
	}
	b.stopMirror() // the last screen is written on stop
	want := "display: |AUCUN LOGICIEL  |APPEL TECHNICIEN|"
	if !strings.Contains(console.String(), want) {
		t.Fatalf("console %q lacks %q", console.String(), want)
	}
}

// TestQemuVirtControl: the host presses the emulated OK button through the control port;
// a word that names nothing is ignored.
func TestQemuVirtControl(t *testing.T) {
	prof, _ := Lookup(QemuVirtName)
	b, err := openConsoleBoard(prof, Config{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer b.stopMirror()
	clk := clockwork.NewFakeClock()
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- control(context.Background(), b.Emulator, r, clk) }()
	if _, err := io.WriteString(w, "bogus\nok\n"); err != nil {
		t.Fatal(err)
	}
	if err := clk.BlockUntilContext(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	if !b.Emulator.OK.Active() {
		t.Fatal("OK not pressed")
	}
	clk.Advance(pressTime)
	w.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if b.Emulator.OK.Active() {
		t.Fatal("OK still pressed after the press")
	}
}

func FuzzControlAction(f *testing.F) {
	for _, s := range []string{"ok", "cancel", "tamper-open", "tamper-close", " ok \r", "okk"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, _, _, err := controlAction(s)
		if err != nil {
			if !errors.Is(err, ErrControl) {
				t.Fatalf("error without ErrControl: %v", err)
			}
			return
		}
		if c < ContactOK || c > ContactTamper {
			t.Fatalf("contact %d", c)
		}
	})
}
