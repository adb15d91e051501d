package maint

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/firmware/flash"
)

// Issue 47: a technician with the token provisions a configuration that raises a money
// limit (all four up to 1 000 000 €) or points the terminal at another fleet: refused,
// naming each setting with its running and provisioned values; the running configuration
// stays. A configuration that keeps them (another retailer name) installs.
func TestTechnicianCannotRaiseLimits(t *testing.T) {
	s, _ := site(t)
	it := Items(s)[flash.Config]
	ctx := context.Background()
	good := writeConfig(t, *s.Running)
	if _, err := it.Install(ctx, good); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(c *config.Config){
		"limits.pay_per_ticket":     func(c *config.Config) { c.Limits.PerTicket = 1_000_00 },
		"limits.pay_per_day":        func(c *config.Config) { c.Limits.PerDay = 1_000_000_00 },
		"limits.offline_per_ticket": func(c *config.Config) { c.Limits.OfflinePerTicket = c.Limits.PerTicket },
		"limits.offline_total":      func(c *config.Config) { c.Limits.OfflineTotal = 1_000_000_00 },
		"fleet.url":                 func(c *config.Config) { c.Fleet.URL = "nats://fleet.example:4222" },
	} {
		c := *s.Running
		edit(&c)
		p := writeConfig(t, c)
		_, err := it.Install(ctx, p)
		if !errors.Is(err, ErrOperatorSettings) || !strings.Contains(err.Error(), name) {
			t.Errorf("config changing %s: %v", name, err)
		}
		if !bytes.Equal(mustRead(t, s.ConfigPath), mustRead(t, good)) {
			t.Fatalf("config changing %s: the running configuration was replaced", name)
		}
	}
	all := *s.Running
	all.Limits = config.Limits{PerTicket: 1_000_000_00, PerDay: 1_000_000_00, OfflinePerTicket: 1_000_000_00, OfflineTotal: 1_000_000_00}
	err := it.Verify(ctx, writeConfig(t, all))
	for name := range OperatorSettings(&all) {
		if name != "fleet.url" && (err == nil || !strings.Contains(err.Error(), name)) {
			t.Errorf("all four limits raised: %s not named: %v", name, err)
		}
	}
	c := *s.Running
	c.RetailerName = "TABAC DU PORT"
	if _, err := it.Install(ctx, writeConfig(t, c)); err != nil {
		t.Fatalf("a configuration keeping the operator's settings: %v", err)
	}
}
