package main

import (
	"log/slog"
	"path/filepath"

	"github.com/packterm/pos/device/daemon"
	"github.com/packterm/pos/firmware/slot"
	"github.com/packterm/pos/firmware/watchdog"
)

// boardOptions are the daemon's options on a board, from the environment systemd and
// posboot give it: $NOTIFY_SOCKET and $WATCHDOG_USEC, the booted slot ($POS_SLOT…).
func boardOptions(configPath string, log *slog.Logger, started func(daemon.Running)) daemon.Options {
	o := daemon.Options{Logger: log, Started: started, Notifier: watchdog.FromEnv()}
	if p, err := filepath.Abs(configPath); err == nil {
		o.ConfigPath = p
	}
	if d, ok := watchdog.Interval(); ok {
		o.Watchdog = d
	}
	if b, ok := slot.BootedFromEnv(); ok {
		o.Booted = &b
	}
	return o
}
