package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/ledger"
)

func init() {
	var data, id, out, accountSeed, issuer, devicePub string
	var retailer uint32
	c := &cobra.Command{
		Use:   "add-terminal --data DIR --id ID --retailer N --out FILE [--device-pub FILE]",
		Short: "Register a terminal: create its nkey seed (its [fleet] credentials file) and add it to the registry",
		Long: "Create the terminal's own NATS nkey, write its seed to FILE (0600: copy it to the terminal as\n" +
			"[fleet] credentials and delete it here) and register its public key, id and retailer in\n" +
			"DIR/terminals.json. The server grants it journal.ID.> and its own request subjects only; restart\n" +
			"posctl fleet serve to take it.\n\n" +
			"--device-pub registers the terminal's device public key (its journal's device.pub): the fleet\n" +
			"checks every record the terminal publishes with it (or later: posctl fleet set-device-key).\n\n" +
			"For a NATS cluster in operator/account (JWT) mode, --account-seed signs a user JWT for the\n" +
			"terminal with the fleet account's key (or a signing key of it, with --issuer-account) carrying\n" +
			"the same permissions, and FILE is a .creds file (JWT and seed) instead of a bare seed.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if err := fleet.CheckTerminal(id); err != nil {
				return err
			}
			reg, err := server.InitData(data)
			if err != nil {
				return err
			}
			if _, ok := reg.Terminal(id); ok {
				return fmt.Errorf("fleet: terminal %s is already registered", id)
			}
			device := "" // not registered: set-device-key later
			if devicePub != "" {
				k, err := ledger.LoadPublicKey(devicePub)
				if err != nil {
					return err
				}
				device = server.EncodeDeviceKey(k)
			}
			pub, err := newTerminalKey(out, id, accountSeed, issuer)
			if err != nil {
				return err
			}
			reg.Terminals = append(reg.Terminals, server.Terminal{ID: id, Retailer: retailer, NKey: pub, DevicePub: device})
			if err := server.SaveRegistry(data, reg); err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "terminal %s (retailer %d) registered; credentials in %s\n", id, retailer, out)
			return nil
		},
	}
	c.Flags().StringVar(&data, "data", "", "fleet data directory")
	c.Flags().StringVar(&id, "id", "", "terminal id (as in its [terminal] id)")
	c.Flags().Uint32Var(&retailer, "retailer", 0, "the terminal's retailer")
	c.Flags().StringVar(&out, "out", "", "where to write the terminal's nkey seed, or its .creds file with --account-seed (must not exist)")
	c.Flags().StringVar(&accountSeed, "account-seed", "", "operator/account (JWT) mode: the fleet account's seed file (or a signing key's) that signs the terminal's user JWT")
	c.Flags().StringVar(&issuer, "issuer-account", "", "with a signing key as --account-seed: the fleet account's public key")
	c.Flags().StringVar(&devicePub, "device-pub", "", "the terminal's device public key file (its journal's device.pub)")
	for _, f := range []string{"data", "id", "retailer", "out"} {
		c.MarkFlagRequired(f)
	}
	fleetCmd.AddCommand(c)
}

// newTerminalKey writes the terminal's credentials to out and returns its public user key:
// a bare nkey seed (the embedded server's nkey users), or with accountSeed a .creds file
// whose user JWT the account signs (operator/account mode).
func newTerminalKey(out, id, accountSeed, issuer string) (string, error) {
	if accountSeed == "" {
		if issuer != "" {
			return "", fmt.Errorf("fleet: --issuer-account needs --account-seed")
		}
		kp, err := server.NewSeedFile(out)
		if err != nil {
			return "", err
		}
		return kp.PublicKey()
	}
	signer, err := server.ReadSeed(accountSeed)
	if err != nil {
		return "", err
	}
	return server.NewTerminalCreds(out, id, signer, issuer)
}
