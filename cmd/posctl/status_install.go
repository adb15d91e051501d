package main

import (
	"fmt"

	"github.com/packterm/pos/validate/ledger"
)

func init() {
	var retailer uint32
	cmd := installCmd("pack status list",
		"Install a pack status list as DIR/pack-status.list the way a terminal does: it is copied into\n"+
			"DIR first, and the copy must verify against the trusted keys, be for the terminal's retailer\n"+
			"(--retailer, as in the terminal's configuration; also when no list is installed yet) and for\n"+
			"the retailer of the installed list, and not be older than it; on any refusal the installed\n"+
			"list stays.",
		func(dir, file string, trust *ledger.TrustStore) (ledger.Installed, error) {
			return ledger.InstallStatus(dir, file, trust, retailer)
		},
		func(res ledger.Installed) string { return fmt.Sprintf("version %d", res.Version) })
	cmd.Use = "install --pub KEY --dir DIR --retailer N FILE"
	cmd.Flags().Uint32Var(&retailer, "retailer", 0, "the terminal's retailer id (lists for another retailer are refused)")
	cmd.MarkFlagRequired("retailer")
	statusCmd.AddCommand(cmd)
}
