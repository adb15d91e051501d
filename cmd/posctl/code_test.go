package main

import (
	"errors"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/validate/codes"
)

func TestCodeRenderDecode(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		kind string
	}{
		{[]string{"pack", "42", "123456"}, "pack"},
		{[]string{"ticket", "42", "123456", "3"}, "ticket"},
		{[]string{"validation", "9999", "1499999", "8"}, "validation"},
	}
	for _, c := range cases {
		file := filepath.Join(dir, c.kind+".png")
		out, err := run(t, append(append([]string{"code", "render"}, c.args...), "--out", file, "--secret", "", "--symbology", "")...)
		if err != nil {
			t.Fatalf("render %v: %v", c.args, err)
		}
		text := strings.SplitN(out, "\n", 2)[0]
		k, _, err := codes.Parse(text)
		if err != nil || k.String() != c.kind {
			t.Fatalf("render %v printed %q: %v %v", c.args, out, k, err)
		}
		out, err = run(t, "code", "decode", file)
		if err != nil {
			t.Fatalf("decode %s: %v", file, err)
		}
		if !strings.HasPrefix(out, c.kind+" "+text) {
			t.Errorf("decode %s: %q, want %q", c.kind, out, c.kind+" "+text)
		}
	}
	// A validation code with a given secret, as DataMatrix: the same text comes back.
	file := filepath.Join(dir, "dm.png")
	out, err := run(t, "code", "render", "validation", "42", "7", "1", "--out", file,
		"--secret", "00112233445566778899", "--symbology", "datamatrix")
	if err != nil {
		t.Fatal(err)
	}
	want := "validation " + strings.SplitN(out, "\n", 2)[0] + " ticket 0042/0000007/1\n"
	if got, err := run(t, "code", "decode", file); err != nil || got != want {
		t.Errorf("datamatrix: %q %v, want %q", got, err, want)
	}
}

func TestCodeDecodeNothing(t *testing.T) {
	file := filepath.Join(t.TempDir(), "blank.png")
	fh, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(fh, image.NewGray(image.Rect(0, 0, 320, 240))); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	_, err = run(t, "code", "decode", file)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(err.Error(), "no code found") {
		t.Errorf("blank image: %v", err)
	}
}

func TestCodeRenderErrors(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.png")
	for _, args := range [][]string{
		{"pack", "0", "1"},
		{"pack", "1", "1500000"},
		{"ticket", "1", "1", "9"},
		{"lottery", "1", "1"},
		{"validation", "1", "1", "1", "--secret", "abcd"},
		{"pack", "1", "x"},
		{"pack", "1", "2", "3"},
		{"pack", "1", "2", "--secret", "00112233445566778899"},
	} {
		full := append(append([]string{"code", "render"}, args...), "--out", out)
		if !containsFlag(args, "--secret") {
			full = append(full, "--secret", "")
		}
		if _, err := run(t, full...); err == nil {
			t.Errorf("render %v accepted", args)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused render wrote a file")
	}
}

func containsFlag(args []string, f string) bool {
	for _, a := range args {
		if a == f {
			return true
		}
	}
	return false
}
