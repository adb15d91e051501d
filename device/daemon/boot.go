package daemon

import (
	"context"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/firmware/slot"
	"github.com/packterm/pos/firmware/watchdog"
)

// serviceManager tells systemd the terminal started (READY=1) once its first screen is
// shown, then pings the watchdog (WATCHDOG=1 every period/2) while pingOK says so, until
// ctx ends. A nil notifier or a zero period pings nothing.
func serviceManager(ctx context.Context, n *watchdog.Notifier, clock clockwork.Clock, period time.Duration,
	ready <-chan struct{}, pingOK func() bool, log *slog.Logger) {
	select {
	case <-ready:
	case <-ctx.Done():
		return
	}
	if err := n.Ready(); err != nil {
		log.Warn("posd: service manager: READY", "err", err)
	}
	if period <= 0 {
		return
	}
	if err := watchdog.Run(ctx, clock, n, period, pingOK); err != nil {
		log.Error("posd: watchdog pings stopped", "err", err)
	}
}

// watchdogTest is what the watchdog pings on. On a trial slot the terminal must be
// healthy (first screen, ledger, printer answered; Health): a firmware that never gets
// there stops pinging, systemd restarts it, posboot counts the start, and after MaxBoots
// the previous slot comes back. Otherwise (a committed slot, or no slots) being live is
// enough: a terminal waiting for its ledger or for its printer at start is not hung, and
// killing it every WatchdogSec would only cut the technician's transfer that brings the
// ledger.
func watchdogTest(h *Health, booted *slot.Booted) func() bool {
	if booted != nil && booted.Trial {
		return h.OK
	}
	return h.Live
}

// commitTrial marks the trial slot good once the terminal is healthy (never when it does
// not get there: no ledger, a printer that never answers).
func commitTrial(ctx context.Context, h *Health, b *slot.Booted, log *slog.Logger) {
	if b == nil || !b.Trial {
		return
	}
	select {
	case <-h.Healthy():
	case <-ctx.Done():
		return
	}
	if err := b.MarkGood(log); err != nil {
		log.Error("posd: trial slot not marked good", "slot", b.Slot, "version", b.Version.String(), "err", err)
		return
	}
	log.Info("posd: trial slot marked good", "slot", b.Slot, "version", b.Version.String())
}
