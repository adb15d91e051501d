package board

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a console the mirror writes to while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestQemuVirtConsoleDisplay: on the qemu-virt profile the parts are emulated and what
// the panel shows reaches the serial console (written at the latest when the board is
// closed), so a person or scripts/image-test.sh reads the screen on the console.
func TestQemuVirtConsoleDisplay(t *testing.T) {
	prof, err := Lookup(QemuVirtName)
	if err != nil {
		t.Fatal(err)
	}
	var console lockedBuffer
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
