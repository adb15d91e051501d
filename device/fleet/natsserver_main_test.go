package fleet_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"testing"

	natsserver "github.com/nats-io/nats-server/v2/server"
)

// natsServerEnv, when set in a child's environment, makes this test binary run as
// nats-server with the arguments that follow the flag "--" (the module's own server
// code, as its main does): the real-cluster test starts its nodes that way, without a
// go tool or a second build of nats-server.
const natsServerEnv = "FLEET_TEST_RUN_NATS_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(natsServerEnv) == "1" {
		os.Exit(runNATSServer(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// runNATSServer is nats-server's main (github.com/nats-io/nats-server/v2/main.go): the
// options from args, the server started, then served until a signal stops it.
func runNATSServer(args []string) int {
	fs := flag.NewFlagSet("nats-server", flag.ContinueOnError)
	opts, err := natsserver.ConfigureOptions(fs, args, natsserver.PrintServerAndExit, fs.Usage, natsserver.PrintTLSHelpAndDie)
	if err != nil {
		if errors.Is(err, natsserver.ErrConfigReloadNotSupported) {
			fmt.Fprintf(os.Stderr, "nats-server: %v\n", err)
			return 3
		}
		fmt.Fprintf(os.Stderr, "nats-server: %v\n", err)
		return 1
	}
	s, err := natsserver.NewServer(opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "nats-server: %v\n", err)
		return 1
	}
	s.ConfigureLogger()
	if err := natsserver.Run(s); err != nil {
		fmt.Fprintf(os.Stderr, "nats-server: %v\n", err)
		return 1
	}
	s.WaitForShutdown()
	return 0
}
