//go:build !linux

package scanner

import (
	"errors"
	"os"
)

// grab: evdev exists on Linux only.
func grab(f *os.File) error {
	return errors.New("scanner: EVIOCGRAB: evdev input devices exist on Linux only")
}
