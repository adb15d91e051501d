package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	natsserver "github.com/nats-io/nats-server/v2/server"

	"github.com/packterm/pos/device/fleet/server"
)

// TestFleetClusterConfig: posctl fleet cluster-config writes one nats-server
// configuration per node that nats-server reads: JetStream and its store, routes to every
// node, TLS files named for clients and routes, a monitoring port, and the registry's
// nkey users with each terminal's permissions (device/fleet TestClusterConfigRealServers
// runs three real nats-server processes from them).
func TestFleetClusterConfig(t *testing.T) {
	data, out := t.TempDir(), t.TempDir()
	if o, err := runNet(t, "fleet", "add-terminal", "--data", data, "--id", "T7", "--retailer", "3", "--out", filepath.Join(t.TempDir(), "T7.nk")); err != nil {
		t.Fatalf("add-terminal: %v\n%s", err, o)
	}
	o, err := runNet(t, "fleet", "cluster-config", "--nodes", "3", "--data", data, "--out", out, "--hosts", "fleet-1,fleet-2,fleet-3",
		"--store", "/var/lib/nats", "--tls-dir", "/etc/nats/tls")
	if err != nil || !strings.Contains(o, "tls://fleet-1:4222,tls://fleet-2:4222,tls://fleet-3:4222") {
		t.Fatalf("cluster-config: %v\n%s", err, o)
	}
	for i := 1; i <= 3; i++ {
		b, _ := os.ReadFile(filepath.Join(out, fmt.Sprintf("node-%d.conf", i)))
		for _, want := range []string{fmt.Sprintf(`cert_file: "/etc/nats/tls/node-%d.pem"`, i), fmt.Sprintf(`key_file: "/etc/nats/tls/node-%d-key.pem"`, i),
			`ca_file: "/etc/nats/tls/ca.pem"`, "verify: true"} {
			if strings.Count(string(b), want) < 1 {
				t.Fatalf("node %d lacks %s:\n%s", i, want, b)
			}
		}
	}
	// nats-server reads the files (without TLS here: it loads the files it names).
	if o, err := runNet(t, "fleet", "cluster-config", "--nodes", "3", "--data", data, "--out", out, "--hosts", "fleet-1,fleet-2,fleet-3",
		"--store", "/var/lib/nats"); err != nil || !strings.Contains(o, "nats://fleet-1:4222,") {
		t.Fatalf("cluster-config: %v\n%s", err, o)
	}
	reg, _ := server.LoadRegistry(data)
	for i := 1; i <= 3; i++ {
		opts, err := natsserver.ProcessConfigFile(filepath.Join(out, fmt.Sprintf("node-%d.conf", i)))
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
		host := fmt.Sprintf("fleet-%d", i)
		if opts.ServerName != host || opts.Host != host || opts.Port != 4222 || opts.HTTPPort != 8222 || !opts.JetStream ||
			opts.StoreDir != fmt.Sprintf("/var/lib/nats/node-%d", i) || opts.Cluster.Name != "fleet" || opts.Cluster.Port != 6222 ||
			len(opts.Routes) != 3 {
			t.Fatalf("node %d: %+v", i, opts)
		}
		users := map[string]*natsserver.NkeyUser{} // accounts come in no order
		for _, u := range opts.Nkeys {
			users[u.Nkey] = u
		}
		op, t7 := users[reg.Operator], users[reg.Terminals[0].NKey]
		if len(opts.Nkeys) != 2 || op == nil || t7 == nil || op.Permissions != nil || op.Account.GetName() != server.FleetAccount {
			t.Fatalf("node %d users: %+v", i, opts.Nkeys)
		}
		// T7 alone in an account of its own, which imports its own subjects from the fleet's.
		if acc := t7.Account; acc.GetName() != server.TerminalAccount("T7") || acc.NumServiceImports() != len(server.TerminalImports("T7")) {
			t.Fatalf("node %d: T7's account %s with %d imports", i, acc.GetName(), acc.NumServiceImports())
		}
		want := server.TerminalPermissions("T7")
		p := t7.Permissions
		if p == nil || !slices.Equal(p.Publish.Allow, want.Publish.Allow) ||
			!slices.Equal(p.Subscribe.Allow, want.Subscribe.Allow) || len(p.Publish.Deny)+len(p.Subscribe.Deny) != 0 {
			t.Fatalf("node %d: T7's permissions %+v", i, p)
		}
	}
	if _, err := runNet(t, "fleet", "cluster-config", "--nodes", "2", "--data", data, "--out", out); err == nil {
		t.Fatal("a 2-node cluster configured")
	}
}
