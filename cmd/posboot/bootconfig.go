package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/internal/regularfile"
)

// bootConfig is what posboot reads of posd's configuration file: the firmware keys
// ([keys] firmware, the one list both trust) and where the display is ([board] profile,
// [board.pins], [display] size).
//
// posboot is not replaced by bundles while posd and its configuration rules are, so it
// reads the file leniently: any TOML document, other sections and keys ignored (a key a
// later posd knows must not stop the boot), the few it reads looked up by their exact
// names and types. posd itself refuses anything its rules do not allow.
type bootConfig struct {
	Firmware []string // [keys] firmware: absolute paths
	Board    board.Config
	Rows     int // the panel's rows (2 or 4)
}

// errBootConfig marks a configuration posboot cannot read.
var errBootConfig = errors.New("configuration unusable")

// loadBootConfig reads path as posd would open it (a regular file, at most
// config.MaxFileSize, writable by no other user).
func loadBootConfig(path string) (*bootConfig, error) {
	data, err := readConfig(path)
	if err != nil {
		return nil, fmt.Errorf("posboot: %w: %w", errBootConfig, err)
	}
	c, err := parseBootConfig(data)
	if err != nil {
		return nil, fmt.Errorf("posboot: %w: %s: %w", errBootConfig, path, err)
	}
	return c, nil
}

// readConfig reads the file through the descriptor its checks were made on.
func readConfig(path string) ([]byte, error) {
	f, size, err := regularfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Mode().Perm()&0o002 != 0 {
		return nil, fmt.Errorf("%s is writable by every user (mode %04o)", path, st.Mode().Perm())
	}
	if size > config.MaxFileSize {
		return nil, fmt.Errorf("%s: %d bytes, at most %d", path, size, config.MaxFileSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, config.MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > config.MaxFileSize {
		return nil, fmt.Errorf("%s: grew past %d bytes while read", path, config.MaxFileSize)
	}
	return data, nil
}

// parseBootConfig reads the keys posboot needs from a TOML document.
func parseBootConfig(data []byte) (*bootConfig, error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not TOML: %w", err)
	}
	c := &bootConfig{Rows: 4}
	keys, err := table(doc, "keys")
	if err != nil {
		return nil, err
	}
	if c.Firmware, err = paths(keys, "firmware"); err != nil {
		return nil, err
	}
	bd, err := table(doc, "board")
	if err != nil {
		return nil, err
	}
	if c.Board.Profile, err = text(bd, "board", "profile"); err != nil {
		return nil, err
	}
	pins, err := table(bd, "pins")
	if err != nil {
		return nil, fmt.Errorf("[board] %w", err)
	}
	over := map[string]string{}
	for name := range pins {
		if over[name], err = text(pins, "board.pins", name); err != nil {
			return nil, err
		}
	}
	c.Board.Pins = (&config.Config{Pins: over}).PinMap()
	disp, err := table(doc, "display")
	if err != nil {
		return nil, err
	}
	if c.Board.Display, err = text(disp, "display", "size"); err != nil {
		return nil, err
	}
	geo, err := board.ParseGeometry(c.Board.Display)
	if err != nil {
		return nil, err
	}
	c.Rows = geo.Rows
	return c, nil
}

// table is doc[name] as a table, empty when absent.
func table(doc map[string]any, name string) (map[string]any, error) {
	v, ok := doc[name]
	if !ok {
		return map[string]any{}, nil
	}
	t, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s is not a table", name)
	}
	return t, nil
}

// text is t[key] as a string, "" when absent.
func text(t map[string]any, section, key string) (string, error) {
	v, ok := t[key]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("[%s] %s is not a string", section, key)
	}
	return s, nil
}

// paths is t[key] as an array of absolute paths.
func paths(t map[string]any, key string) ([]string, error) {
	v, ok := t[key]
	if !ok {
		return nil, nil
	}
	a, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("[keys] %s is not an array", key)
	}
	out := make([]string, 0, len(a))
	for i, x := range a {
		p, ok := x.(string)
		if !ok || !filepath.IsAbs(p) || strings.IndexByte(p, 0) >= 0 {
			return nil, fmt.Errorf("[keys] %s: entry %d is not an absolute path", key, i+1)
		}
		out = append(out, p)
	}
	return out, nil
}
