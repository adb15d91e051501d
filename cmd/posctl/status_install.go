package main

import (
	"fmt"

	"github.com/packterm/pos/validate/ledger"
)

func init() {
	statusCmd.AddCommand(installCmd("pack status list",
		"Install a pack status list as DIR/pack-status.list: it must verify against the trusted keys, be\n"+
			"for the retailer of the installed list and not be older than it; on any refusal the installed\n"+
			"list stays.",
		ledger.InstallStatus,
		func(res ledger.Installed) string { return fmt.Sprintf("version %d", res.Version) }))
}
