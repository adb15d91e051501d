package main

import "github.com/spf13/cobra"

// keysCmd is the parent of the key commands (keys_*.go add their subcommands).
var keysCmd = &cobra.Command{Use: "keys", Short: "Signing keys (operator, firmware) and the technician's unlock card"}

func init() { root.AddCommand(keysCmd) }
