package scanner

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the event recordings in testdata/evdev from their key scripts")

// decodeAll runs a recording through the event decoder, the key decoder and the framer.
func decodeAll(t testing.TB, rec []byte, word int, ks *keyScript, chunk int) []string {
	t.Helper()
	dec, err := NewEventDecoder(word)
	if err != nil {
		t.Fatal(err)
	}
	keys := NewKeyDecoder(ks.typist.Keymap)
	fr := NewFramer(ks.suffix, 512)
	var got []string
	var evs []InputEvent
	for len(rec) > 0 {
		n := min(chunk, len(rec))
		evs = dec.Feed(evs[:0], rec[:n])
		rec = rec[n:]
		for _, f := range fr.Feed(keys.Feed(nil, evs)) {
			if f.Err != nil {
				got = append(got, "")
				continue
			}
			got = append(got, string(f.Line))
		}
	}
	return got
}

func loadScript(t testing.TB, name string) *keyScript {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "evdev", name+".keys"))
	if err != nil {
		t.Fatal(err)
	}
	ks, err := parseScript(string(src))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return ks
}

// recording is the checked-in event file of a script for a word size (.ev64: 24-byte
// events of amd64 and arm64, .ev32: 16-byte events of 32-bit ARM).
func recording(name string, word int) string {
	return filepath.Join("testdata", "evdev", fmt.Sprintf("%s.ev%d", name, word*8))
}

var scripts = []string{"us-codes", "fr-codes", "fr-tab", "repeat"}

// The recordings are what the scripts make (go test -update writes them), and decode, for
// both word sizes and whatever the read sizes, to the lines the scripts want.
func TestEvdevRecordings(t *testing.T) {
	for _, name := range scripts {
		ks := loadScript(t, name)
		for _, word := range []int{8, 4} {
			t.Run(fmt.Sprintf("%s/%d", name, word*8), func(t *testing.T) {
				rec := ks.record(word)
				if *update {
					if err := os.WriteFile(recording(name, word), rec, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				file, err := os.ReadFile(recording(name, word))
				if err != nil || !bytes.Equal(file, rec) {
					t.Fatalf("%s out of date (go test -update): %v", recording(name, word), err)
				}
				if len(file)%EventSize(word) != 0 {
					t.Fatalf("%d bytes: not whole events of %d", len(file), EventSize(word))
				}
				for _, chunk := range []int{EventSize(word) * 64, 7, 1} {
					got := decodeAll(t, file, word, ks, chunk)
					if strings.Join(got, "|") != strings.Join(ks.want, "|") {
						t.Errorf("read %d at a time: lines %q, want %q", chunk, got, ks.want)
					}
				}
			})
		}
	}
}

// The same code typed on either layout is the same line.
func TestEvdevLayoutsAgree(t *testing.T) {
	const code = "PACK-0042-7 AZQWM"
	var lines []string
	for _, km := range []string{"us", "fr"} {
		ks, err := parseScript("keymap " + km + "\ntype " + code + "\nkey ENTER\n")
		if err != nil {
			t.Fatal(err)
		}
		got := decodeAll(t, ks.record(NativeWord), 0, ks, 1<<20)
		if len(got) != 1 || got[0] != code {
			t.Fatalf("%s: %q", km, got)
		}
		lines = append(lines, string(ks.record(8)))
	}
	if lines[0] == lines[1] {
		t.Fatal("both layouts typed the same keys")
	}
	// The keys of a US scanner read with the AZERTY keymap are not the code.
	us, _ := parseScript("keymap us\ntype " + code + "\nkey ENTER\n")
	us.typist.Keymap = KeymapFR
	if got := decodeAll(t, us.record(8), 8, us, 1<<20); len(got) == 1 && got[0] == code {
		t.Fatal("keymap ignored")
	}
}

func TestEventDecoderFields(t *testing.T) {
	e := InputEvent{Sec: 1_700_000_123, Usec: 456789, Type: evKey, Code: 30, Value: -7}
	for _, word := range []int{4, 8} {
		b := AppendEvent(nil, word, e)
		if len(b) != EventSize(word) {
			t.Fatalf("word %d: %d bytes", word, len(b))
		}
		d, _ := NewEventDecoder(word)
		got := d.Feed(nil, b)
		if len(got) != 1 || got[0] != e {
			t.Fatalf("word %d: %+v", word, got)
		}
	}
	if _, err := NewEventDecoder(2); err == nil {
		t.Fatal("word size 2 accepted")
	}
	if EventSize(NativeWord) != 24 && EventSize(NativeWord) != 16 {
		t.Fatalf("native event size %d", EventSize(NativeWord))
	}
}

// A character device that is not an input device cannot be grabbed: refused, not read.
func TestGrabRefusesNonInputDevice(t *testing.T) {
	f, _, err := openInput("/dev/null")
	if err == nil {
		f.Close()
		t.Fatal("/dev/null opened as an input device")
	}
	// ENOTTY from the kernel; ENOSYS under qemu-user, which does not forward this ioctl.
	if !strings.Contains(err.Error(), "EVIOCGRAB") || !(errors.Is(err, syscall.ENOTTY) || errors.Is(err, syscall.ENOSYS)) {
		t.Fatalf("error %v", err)
	}
	if _, _, err := openInput(t.TempDir()); err == nil {
		t.Fatal("a directory opened as an input device")
	}
}

func TestResolveInputListsCandidates(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"usb-Datalogic_Gryphon-event-kbd", "usb-Logitech_Mouse-event-mouse", "usb-Honeywell_1900-event-kbd"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o600)
	}
	_, err := ResolveInput("usb-Zebra-event-kbd", dir)
	if !errors.Is(err, ErrNoInput) || !strings.Contains(err.Error(), "usb-Datalogic_Gryphon-event-kbd, usb-Honeywell_1900-event-kbd") ||
		strings.Contains(err.Error(), "Mouse") {
		t.Fatalf("%v", err)
	}
	if p, err := ResolveInput("usb-Honeywell_1900-event-kbd", dir); err != nil || p != filepath.Join(dir, "usb-Honeywell_1900-event-kbd") {
		t.Fatalf("%q %v", p, err)
	}
}
