package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/drivers/scanner/scanneremul"
	"github.com/packterm/pos/internal/syncbuf"
	"github.com/packterm/pos/validate/codes"
)

func runDevices(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out syncbuf.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// cobra keeps a subcommand's context from an earlier Execute in the same process.
	if sub, _, err := root.Find(args); err == nil {
		sub.SetContext(ctx)
	}
	err := root.ExecuteContext(ctx)
	return out.String(), err
}

func TestPrinterRenderCapture(t *testing.T) {
	dir := t.TempDir()
	out, err := runDevices(t, "printer", "render", "../../drivers/printer/printeremul/testdata/capture/python-escpos.bin", "--out", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "2 receipt(s)") || strings.Contains(out, "unknown sequence") {
		t.Fatalf("output:\n%s", out)
	}
	for _, f := range []string{"0001.txt", "0001.png", "0002.txt", "0002.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	txt, _ := os.ReadFile(filepath.Join(dir, "0001.txt"))
	if !strings.Contains(string(txt), "B I G   T I T L E") {
		t.Errorf("0001.txt:\n%s", txt)
	}
}

func TestPrinterRenderListsUnknown(t *testing.T) {
	dir := t.TempDir()
	capture := filepath.Join(dir, "c.bin")
	os.WriteFile(capture, []byte("abc\n\x1b\x01\x1dV\x00"), 0o644)
	out, err := runDevices(t, "printer", "render", capture, "--out", filepath.Join(dir, "out"))
	if err != nil || !strings.Contains(out, "unknown sequence: 1B 01") {
		t.Fatalf("%v\n%s", err, out)
	}
}

func TestPrinterTestAndStatusOnEmulator(t *testing.T) {
	emu, err := printeremul.NewEmulator(filepath.Join(t.TempDir(), "ttyPRN"), printeremul.Config{Columns: 42})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	out, err := runDevices(t, "printer", "test", "--port", emu.Path(), "--columns", "42", "--drawer")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	rs := emu.Receipts()
	if len(rs) != 1 || !strings.Contains(rs[0].PlainText(), "PAGE DE TEST") || len(rs[0].Drawer) != 1 {
		t.Fatalf("emulator got %d receipts\n%s", len(rs), out)
	}
	emu.SetCoverOpen(true)
	out, err = runDevices(t, "printer", "status", "--port", emu.Path())
	if ee, ok := err.(*exitError); !ok || ee.code != 3 || !strings.Contains(out, "cover-open") {
		t.Fatalf("status with cover open: %v\n%s", err, out)
	}
}

func TestScannerListenOnEmulator(t *testing.T) {
	emu, err := scanneremul.New(filepath.Join(t.TempDir(), "ttySCN"), scanneremul.Config{Suffix: scanner.CRLF, AIM: true})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	ctx := context.Background()
	// Sent before listen opens the port: the line discipline keeps them for it.
	emu.WriteRaw(ctx, []byte("\x00\x01garbage\r\n"))
	pack := codes.PackCode{Block: 42, Pack: 7}
	id := codes.TicketID{Block: 42, Pack: 7, Position: 3}
	v := codes.ValidationCodeOf(id, [codes.SecretSize]byte{1, 2, 3})
	emu.Scan(ctx, pack.String(), "]C0")
	emu.Scan(ctx, codes.TicketCodeOf(id).String(), "]I0")
	emu.Scan(ctx, v.String(), "]Q1")
	emu.Scan(ctx, "HELLO", "]C0")
	out, err := runDevices(t, "scanner", "listen", "--port", emu.Path(), "--suffix", "crlf", "--aim", "--count", "4")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{`text="` + pack.String() + `" symbology=]C0 kind=pack`, "symbology=]I0 kind=ticket",
		"symbology=]Q1 kind=validation ticket " + id.String(), `text="HELLO" symbology=]C0 kind=none of ours`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, v.String()) {
		t.Errorf("the full validation code is printed:\n%s", out)
	}
}
