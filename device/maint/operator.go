package maint

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/packterm/pos/device/config"
)

// ErrOperatorSettings: a provisioned configuration changes a setting that is the
// operator's: a money limit or the fleet the terminal answers to.
var ErrOperatorSettings = errors.New("maint: a provisioned configuration may not change the operator's settings (money limits, fleet)")

// OperatorSettings are the configuration's settings that belong to the operator, not to
// whoever holds the maintenance token: the four money limits and the fleet's address
// (without the fleet, nothing is claimed fleet-wide). They change with the terminal's
// image (or a firmware bundle's configuration), never over the link.
func OperatorSettings(c *config.Config) map[string]string {
	return map[string]string{
		"limits.pay_per_ticket":     config.FormatEuros(c.Limits.PerTicket),
		"limits.pay_per_day":        config.FormatEuros(c.Limits.PerDay),
		"limits.offline_per_ticket": config.FormatEuros(c.Limits.OfflinePerTicket),
		"limits.offline_total":      config.FormatEuros(c.Limits.OfflineTotal),
		"fleet.url":                 c.Fleet.URL,
	}
}

// checkOperatorSettings refuses c when it changes one of running's operator settings,
// naming each with its running and provisioned values.
func checkOperatorSettings(running, c *config.Config) error {
	was, now := OperatorSettings(running), OperatorSettings(c)
	var changed []string
	for k, v := range was {
		if now[k] != v {
			changed = append(changed, fmt.Sprintf("%s (%q, provisioned %q)", k, v, now[k]))
		}
	}
	if len(changed) == 0 {
		return nil
	}
	slices.Sort(changed)
	return fmt.Errorf("%w: it changes %s; keep the running values (they change with the terminal's image)",
		ErrOperatorSettings, strings.Join(changed, ", "))
}
