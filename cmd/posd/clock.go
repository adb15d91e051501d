//go:build !production

package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/emulated"
)

// clockFlags are the emulator's virtual clock: --clock and --clock-step.
type clockFlags struct {
	start string
	step  time.Duration
}

func (c *clockFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.start, "clock", "", "emulator: run the terminal and its journal on a virtual clock that starts at this RFC 3339 time and moves --clock-step per input line (reproducible journal and receipts)")
	fs.DurationVar(&c.step, "clock-step", emulated.DefaultStep, "emulator: with --clock, how far each input line moves the clock")
}

// clock is the emulator's clock and step: the real clock and no step without --clock.
func (c clockFlags) clock() (clockwork.Clock, time.Duration, error) {
	if c.start == "" {
		return nil, 0, nil
	}
	t, err := time.Parse(time.RFC3339, c.start)
	if err != nil {
		return nil, 0, fmt.Errorf("--clock %q: want an RFC 3339 time such as 2026-12-01T09:00:00+01:00", c.start)
	}
	if c.step <= 0 {
		return nil, 0, fmt.Errorf("--clock-step %s: want a positive duration", c.step)
	}
	return emulated.NewVirtualClock(t), c.step, nil
}
