package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/fleet/server"
)

func init() {
	var data, out string
	var cc server.ClusterConfig
	c := &cobra.Command{
		Use:   "cluster-config --nodes 3 --data DIR --out DIR [--hosts H1,H2,H3] [--store DIR] [--tls-dir DIR]",
		Short: "Write each node's nats-server configuration for a JetStream cluster serving the fleet",
		Long: `Write OUT/node-1.conf … node-N.conf, one per nats-server of the cluster: JetStream and its
store (STORE/node-N), the cluster's routes to every node, TLS for clients and routes (the
files TLS-DIR/ca.pem, node-N.pem, node-N-key.pem), a monitoring port (/jsz shows which
node leads each stream), and the nkey users of DIR/terminals.json: the operator, and each
terminal with its own subjects only. Without --hosts every node is on 127.0.0.1, ports
offset by node (a trial on one machine). Run it again after add-terminal and reload the
nodes (nats-server --signal reload). See docs/fleet.md, "A real cluster".`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			reg, err := server.LoadRegistry(data)
			if err != nil {
				return err
			}
			paths, err := cc.Write(reg, out)
			if err != nil {
				return err
			}
			urls, _ := cc.ClientURLs()
			mon, _ := cc.MonitorURLs()
			w := c.OutOrStdout()
			for _, p := range paths {
				fmt.Fprintf(w, "wrote %s\n", p)
			}
			fmt.Fprintf(w, "%d terminals registered; client URL: %s\nmonitoring: %v\n", len(reg.Terminals), urls, mon)
			fmt.Fprintf(w, "next: nats-server -c node-N.conf on each node; posctl fleet service --data %s --url %s --replicas 3 --ledgers DIR --pub KEY", data, urls)
			if cc.TLSDir != "" {
				fmt.Fprintf(w, " --ca %s/ca.pem", cc.TLSDir)
			}
			fmt.Fprintln(w)
			return nil
		},
	}
	c.Flags().StringVar(&data, "data", "", "fleet data directory (terminals.json)")
	c.Flags().StringVar(&out, "out", "", "directory the node-N.conf files are written to")
	c.Flags().IntVar(&cc.Nodes, "nodes", 3, "number of nodes (3 or 5)")
	c.Flags().StringVar(&cc.Name, "name", "fleet", "cluster name")
	c.Flags().StringSliceVar(&cc.Hosts, "hosts", nil, "the nodes' host names, one per node (default: all on 127.0.0.1, ports offset by node)")
	c.Flags().IntVar(&cc.ClientPort, "client-port", 4222, "client port")
	c.Flags().IntVar(&cc.ClusterPort, "cluster-port", 6222, "route port")
	c.Flags().IntVar(&cc.HTTPPort, "http-port", 8222, "monitoring port")
	c.Flags().StringVar(&cc.StoreDir, "store", "/var/lib/nats", "JetStream store directory (each node uses STORE/node-N)")
	c.Flags().StringVar(&cc.TLSDir, "tls-dir", "", "directory of ca.pem, node-N.pem, node-N-key.pem (TLS for clients and routes); empty: no TLS, a trial only")
	c.MarkFlagRequired("data")
	c.MarkFlagRequired("out")
	fleetCmd.AddCommand(c)
}
