package main

import (
	"crypto/ed25519"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/ledger"
)

func init() {
	var data, id, pubFile string
	var replace bool
	c := &cobra.Command{
		Use:   "set-device-key --data DIR --id ID --pub FILE [--replace]",
		Short: "Register a terminal's device public key (its journal's device.pub): the fleet checks every record it publishes with it",
		Long: "Register in DIR/terminals.json the device public key of terminal ID: FILE is the terminal's\n" +
			"journal device.pub (\"pos-ed25519-public …\", as posd writes it at the journal's first start),\n" +
			"copied by the technician. From then on fleet report and settle check each of the terminal's\n" +
			"records' signature with it and the claim service's witness refuses the claims of a terminal\n" +
			"that publishes an unsigned, foreign-signed or re-chained record (docs/fleet.md, \"The fleet is\n" +
			"the witness\"). A running server takes it at its next registry poll.\n\n" +
			"A terminal that already has another key keeps it unless --replace is given: replacing it is an\n" +
			"operator's act (a journal reset makes a new key), said loudly: from then on the fleet takes\n" +
			"records signed by the new key as the terminal's. The old key is kept, retired, so that the\n" +
			"records it signed still verify.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			pub, err := ledger.LoadPublicKey(pubFile)
			if err != nil {
				return err
			}
			reg, err := server.LoadRegistry(data)
			if err != nil {
				return err
			}
			return setDeviceKey(c, data, reg, id, pub, replace)
		},
	}
	c.Flags().StringVar(&data, "data", "", "fleet data directory")
	c.Flags().StringVar(&id, "id", "", "terminal id")
	c.Flags().StringVar(&pubFile, "pub", "", "the terminal's device public key file (its journal's device.pub)")
	c.Flags().BoolVar(&replace, "replace", false, "replace a different key already registered (an operator's act)")
	for _, f := range []string{"data", "id", "pub"} {
		c.MarkFlagRequired(f)
	}
	fleetCmd.AddCommand(c)
}

// setDeviceKey registers pub as terminal id's device key in reg and saves it to data.
func setDeviceKey(c *cobra.Command, data string, reg *server.Registry, id string, pub ed25519.PublicKey, replace bool) error {
	i := -1
	for k, t := range reg.Terminals {
		if t.ID == id {
			i = k
		}
	}
	if i < 0 {
		return fmt.Errorf("fleet: terminal %s is not registered (posctl fleet add-terminal)", id)
	}
	t := &reg.Terminals[i]
	old, had := t.DeviceKey()
	switch {
	case had && old.Equal(pub):
		fmt.Fprintf(c.OutOrStdout(), "terminal %s: device key %v already registered\n", id, ledger.IDOf(pub))
		return nil
	case had && !replace:
		return fmt.Errorf("fleet: terminal %s already has device key %v registered, not %v: --replace replaces it (an operator's act)",
			id, ledger.IDOf(old), ledger.IDOf(pub))
	case had:
		fmt.Fprintf(c.ErrOrStderr(), "WARNING: REPLACING the device key of terminal %s: %v -> %v. The fleet now takes records signed by %v as %s's: "+
			"be sure it is the key of the terminal's journal (its device.pub, read on the terminal). %v is kept, retired: the records it signed still verify.\n",
			id, ledger.IDOf(old), ledger.IDOf(pub), ledger.IDOf(pub), id, ledger.IDOf(old))
		t.RetiredDevicePubs = append(slices.DeleteFunc(t.RetiredDevicePubs, func(s string) bool { return s == server.EncodeDeviceKey(pub) }), t.DevicePub)
	}
	t.DevicePub = server.EncodeDeviceKey(pub)
	if err := server.SaveRegistry(data, reg); err != nil {
		return err
	}
	fmt.Fprintf(c.OutOrStdout(), "terminal %s: device key %v registered\n", id, ledger.IDOf(pub))
	return nil
}
