package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/internal/atomicfile"
	"github.com/packterm/pos/validate/ledger"
)

func init() {
	var data, id, out, operatorSeed, fleetAccount, jwtDir, devicePub string
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
			"For a NATS cluster in operator/account (JWT) mode, --operator-seed (the operator's key or one of\n" +
			"its signing keys) signs an account of the terminal's own that imports its subjects from\n" +
			"--fleet-account, written as ACCOUNT.jwt into --jwt-dir (push it: nsc push, or a full resolver's\n" +
			"directory), and FILE is the .creds file (JWT and seed) of a user in it instead of a bare seed.",
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
			pub, err := newTerminalKey(c, out, id, operatorSeed, fleetAccount, jwtDir)
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
	c.Flags().StringVar(&out, "out", "", "where to write the terminal's nkey seed, or its .creds file with --operator-seed (must not exist)")
	c.Flags().StringVar(&operatorSeed, "operator-seed", "", "operator/account (JWT) mode: the operator's seed file (or a signing key's) that signs the terminal's own account")
	c.Flags().StringVar(&fleetAccount, "fleet-account", "", "with --operator-seed: the fleet account's public key (the account the terminal imports from)")
	c.Flags().StringVar(&jwtDir, "jwt-dir", "", "with --operator-seed: the directory the terminal's account JWT is written to (ACCOUNT.jwt)")
	c.Flags().StringVar(&devicePub, "device-pub", "", "the terminal's device public key file (its journal's device.pub)")
	for _, f := range []string{"data", "id", "retailer", "out"} {
		c.MarkFlagRequired(f)
	}
	fleetCmd.AddCommand(c)
}

// newTerminalKey writes the terminal's credentials to out and returns its public user key:
// a bare nkey seed (config-file modes: the registry's accounts), or with operatorSeed an
// account of the terminal's own, its JWT written to jwtDir, and a .creds file of a user in
// it (operator/account mode).
func newTerminalKey(c *cobra.Command, out, id, operatorSeed, fleetAccount, jwtDir string) (string, error) {
	if operatorSeed == "" {
		if fleetAccount != "" || jwtDir != "" {
			return "", fmt.Errorf("fleet: --fleet-account and --jwt-dir need --operator-seed")
		}
		kp, err := server.NewSeedFile(out)
		if err != nil {
			return "", err
		}
		return kp.PublicKey()
	}
	if jwtDir == "" {
		return "", fmt.Errorf("fleet: --operator-seed needs --jwt-dir (where the terminal's account JWT goes)")
	}
	signer, err := server.ReadSeed(operatorSeed)
	if err != nil {
		return "", err
	}
	made, err := server.NewTerminalCreds(out, id, signer, fleetAccount)
	if err != nil {
		return "", err
	}
	path := filepath.Join(jwtDir, made.Account+".jwt")
	if err := atomicfile.WriteFile(path, []byte(made.AccountJWT), 0o644); err != nil {
		return "", fmt.Errorf("fleet: account JWT: %w", err)
	}
	fmt.Fprintf(c.OutOrStdout(), "terminal %s: account %s, its JWT in %s (push it to the servers' resolver)\n", id, made.Account, path)
	return made.User, nil
}
