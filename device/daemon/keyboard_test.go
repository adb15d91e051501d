package daemon

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/packterm/pos/drivers/scanner"
)

// A terminal whose scanner is a USB keyboard-wedge scanner ([scanner] input, here a FIFO
// fed with the input_event records an AZERTY scanner sends, digits with Shift): the
// daemon reads it through evdev with the configured keymap, and a winner is scanned and
// paid as with a serial scanner.
func TestKeyboardScannerAZERTY(t *testing.T) {
	tb := newTestBlock(t, 6)
	b := newBoard(t, tb)
	b.installLedger(t, tb)
	_, winner := tb.winner(t, func(lot int64) bool { return lot == 5_00 })
	fifo := filepath.Join(b.dir, "usb-Scanner-event-kbd")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// Held open for reading and writing: the daemon's reader never sees the writer go.
	w, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	b.cfg.Scanner.Port, b.cfg.Scanner.Input, b.cfg.Scanner.Keymap = "", fifo, scanner.KeymapFR
	d := b.start(t, Options{})

	ty := scanner.Typist{Keymap: scanner.KeymapFR}
	if err := ty.Type(winner); err != nil {
		t.Fatal(err)
	}
	ty.Key(28) // KEY_ENTER: the scanner's suffix ([scanner] suffix CR, the default)
	if _, err := w.Write(ty.Record(strconv.IntSize / 8)); err != nil {
		t.Fatal(err)
	}
	d.expect("GAGNANT", "5,00 €")
	d.press(b, "PAYÉ")

}
