package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/drivers/printer/printeremul"
)

// A printer that answers DLE EOT but not GS ( H (TM-T88IV, clones): the test page prints in
// status polling mode, and status says so.
func TestPrinterTestWithoutGSH(t *testing.T) {
	resetPrinterFlags(t)
	for _, tc := range []struct {
		noGSH bool
		mode  string
	}{{true, "status-polling"}, {false, "process-id"}} {
		emu, err := printeremul.NewEmulator(filepath.Join(t.TempDir(), "ttyPRN"), printeremul.Config{Columns: 48, NoProcessID: tc.noGSH})
		if err != nil {
			t.Fatal(err)
		}
		defer emu.Close()
		// The pty takes any baud rate; a fast one keeps the status polling short.
		out, err := runDevices(t, "printer", "test", "--port", emu.Path(), "--profile", "default", "--baud", "115200")
		if err != nil {
			t.Fatalf("no GS ( H %v: %v\n%s", tc.noGSH, err, out)
		}
		if !strings.Contains(out, "confirmation "+tc.mode) {
			t.Errorf("test output does not name the mode %s:\n%s", tc.mode, out)
		}
		if rs := emu.Receipts(); len(rs) != 1 || !strings.Contains(rs[0].PlainText(), "PAGE DE TEST") {
			t.Fatalf("emulator got %d receipts\n%s", len(rs), out)
		}
		out, err = runDevices(t, "printer", "status", "--port", emu.Path(), "--profile", "default")
		if err != nil || !strings.Contains(out, "confirmation: "+tc.mode) {
			t.Fatalf("status: %v\n%s", err, out)
		}
	}
	// A profile that knows the model skips the probe.
	emu, err := printeremul.NewEmulator(filepath.Join(t.TempDir(), "ttyPRN"), printeremul.Config{Columns: 32, NoProcessID: true})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	out, err := runDevices(t, "printer", "test", "--port", emu.Path(), "--profile", "58mm-generic", "--baud", "115200")
	if err != nil || !strings.Contains(out, "32 columns, confirmation status-polling") {
		t.Fatalf("58 mm: %v\n%s", err, out)
	}
	emu.TearOff()
	if rs := emu.Receipts(); len(rs) != 1 || !strings.Contains(rs[0].PlainText(), "[QR https://example.invalid/test?n=42]") {
		t.Fatalf("58 mm test page (QR as a raster image): %d receipts", len(rs))
	}
	if u := emu.Unknown(); len(u) != 0 {
		t.Errorf("GS ( H sent to a printer whose profile lacks it: %v", u)
	}
	if _, err := runDevices(t, "printer", "test", "--port", emu.Path(), "--profile", "no-such"); err == nil ||
		!strings.Contains(err.Error(), "tm-t88v") {
		t.Errorf("unknown profile: %v", err)
	}
}

// resetPrinterFlags: cobra keeps flag values between Execute calls in one process.
func resetPrinterFlags(t *testing.T) {
	t.Cleanup(func() {
		for _, sub := range []string{"test", "status"} {
			c, _, err := root.Find([]string{"printer", sub})
			if err != nil {
				t.Fatal(err)
			}
			_ = c.Flags().Set("profile", "")
			_ = c.Flags().Set("baud", "9600")
		}
	})
}

// Paper fed after the last cut is not an empty extra receipt.
func TestPrinterRenderFeedAfterCut(t *testing.T) {
	dir := t.TempDir()
	out, err := runDevices(t, "printer", "render", "../../drivers/printer/printeremul/testdata/capture/feed-after-cut.bin", "--out", dir)
	if err != nil || !strings.Contains(out, "2 receipt(s)") {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "0003.txt")); err == nil {
		t.Fatal("a third, blank receipt was written")
	}
}
