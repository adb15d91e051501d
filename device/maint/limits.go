package maint

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/validate/ledger"
)

// LimitsStatement is where s keeps the installed operator limits statement.
func (s Site) LimitsStatement() string { return filepath.Join(s.Dir, ledger.LimitsStatementFile) }

// installLimits installs an operator limits statement (sent as the Keys item: every
// operator-signed statement goes there), verified against the operator trust in force, for
// this terminal or its retailer, newer than the installed one. Its answer, journalled by
// the daemon, names the version first (the start's floor reads it) and each limit's old
// value (the replaced statement's, else the running configuration's) and new one.
func (s Site) installLimits(path string) (string, error) {
	t, err := s.trust()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return "", fmt.Errorf("maint: %w", err)
	}
	res, prev, err := ledger.InstallLimitsStatement(s.LimitsStatement(), path, t, s.Terminal, s.Retailer)
	if err != nil {
		return "", err
	}
	now, err := ledger.LoadLimitsStatement(s.LimitsStatement())
	if err != nil {
		return "", err
	}
	was := "the replaced statement's"
	old, known := ledger.Limits{}, true
	if prev != nil {
		old = prev.Limits
	} else {
		was = "the configuration's"
		old, known = s.configLimits()
	}
	if !known {
		was = "the configuration's not known"
	}
	return fmt.Sprintf("operator limits installed: statement version %d%s, for %s, signed by %v; from %s: %s",
		res.Version, previous(res), now.Scope(), now.Signer(), was, LimitsChanges(old, now.Limits)), nil
}

// configLimits are the [limits] of the running configuration (Running, else the file at
// ConfigPath); known is false when neither is there.
func (s Site) configLimits() (l ledger.Limits, known bool) {
	c := s.Running
	if c == nil && s.ConfigPath != "" {
		c, _ = config.Load(s.ConfigPath)
	}
	if c == nil {
		return ledger.Limits{}, false
	}
	return ledger.Limits{PerTicket: c.Limits.PerTicket, PerDay: c.Limits.PerDay, OfflinePerTicket: c.Limits.OfflinePerTicket,
		OfflineTotal: c.Limits.OfflineTotal}, true
}

// LimitsChanges lists the four limits as "name: old -> new" (euros), the changed ones
// only ("no limit changed" when none is).
func LimitsChanges(was, now ledger.Limits) string {
	var out string
	for _, x := range []struct {
		name     string
		was, now int64
	}{{"pay_per_ticket", was.PerTicket, now.PerTicket}, {"pay_per_day", was.PerDay, now.PerDay},
		{"offline_per_ticket", was.OfflinePerTicket, now.OfflinePerTicket}, {"offline_total", was.OfflineTotal, now.OfflineTotal}} {
		if x.was == x.now {
			continue
		}
		if out != "" {
			out += ", "
		}
		out += fmt.Sprintf("%s %s -> %s", x.name, config.FormatEuros(x.was), config.FormatEuros(x.now))
	}
	if out == "" {
		return "no limit changed"
	}
	return out
}
