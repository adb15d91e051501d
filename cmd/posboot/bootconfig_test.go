package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/packterm/pos/device/board"
)

func TestParseBootConfig(t *testing.T) {
	c, err := parseBootConfig([]byte(`
[terminal]
id = "T-1"
future_key = 3

[board]
profile = "rpi"
[board.pins]
lcd_rs = "GPIO5"

[display]
size = "16x2"

[keys]
operator = ["/etc/pos/keys/operator.pub"]
firmware = ["/etc/pos/keys/firmware.pub", "/etc/pos/keys/fw"]

[a_section_posd_learns_later]
x = 1
`))
	if err != nil {
		t.Fatal(err)
	}
	want := &bootConfig{
		Firmware: []string{"/etc/pos/keys/firmware.pub", "/etc/pos/keys/fw"},
		Board:    board.Config{Profile: "rpi", Display: "16x2", Pins: board.PinMap{LCDRS: "GPIO5"}},
		Rows:     2,
	}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("got %+v\nwant %+v", c, want)
	}
	for _, bad := range []string{
		"[keys]\nfirmware = \"/one.pub\"\n",       // not an array
		"[keys]\nfirmware = [\"relative.pub\"]\n", // not absolute
		"[keys]\nfirmware = [1]\n",
		"keys = 1\n",
		"[display]\nsize = \"40x2\"\n",
		"[board]\npins = 3\n",
		"[keys]\nfirmware = [\"/a\"]\n[keys]\nfirmware = [\"/b\"]\n", // TOML: a table twice
		"[keys]\nfirmware = [\"/a\"]\nfirmware = [\"/b\"]\n",         // a key twice
	} {
		if _, err := parseBootConfig([]byte(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
	// Names are exact: another case is another key, ignored (posd refuses the file).
	c, err = parseBootConfig([]byte("[KEYS]\nfirmware = [\"/evil.pub\"]\n[keys]\nFirmware = [\"/evil.pub\"]\n"))
	if err != nil || len(c.Firmware) != 0 {
		t.Fatalf("case-mismatched keys read: %+v, %v", c, err)
	}
}

func TestLoadBootConfigRefuses(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "posd.toml")
	if err := os.WriteFile(p, []byte("[keys]\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := loadBootConfig(p); err == nil || !strings.Contains(err.Error(), "writable by every user") {
		t.Errorf("world-writable: %v", err)
	}
	if err := os.WriteFile(p, []byte(strings.Repeat("#", 70<<10)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadBootConfig(p); err == nil {
		t.Error("over MaxFileSize accepted")
	}
	if _, err := loadBootConfig(dir); err == nil {
		t.Error("a directory accepted")
	}
}

// FuzzBootConfig: any bytes give a configuration or an error, never a panic; what is
// accepted has absolute firmware key paths and a panel of 2 or 4 rows.
func FuzzBootConfig(f *testing.F) {
	f.Add([]byte("[keys]\nfirmware = [\"/etc/pos/keys/firmware.pub\"]\n[display]\nsize = \"20x4\"\n"))
	f.Add([]byte("[board.pins]\nlcd_rs = \"GPIO5\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseBootConfig(data)
		if err != nil {
			return
		}
		for _, p := range c.Firmware {
			if !filepath.IsAbs(p) {
				t.Fatalf("relative firmware key path %q", p)
			}
		}
		if c.Rows != 2 && c.Rows != 4 {
			t.Fatalf("rows %d", c.Rows)
		}
	})
}
