package server

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ClusterConfig describes the nodes of a NATS JetStream cluster for the fleet
// (posctl fleet cluster-config): nats-server configuration files, one per node.
type ClusterConfig struct {
	Nodes int    // 3 or 5 (at least 3: a majority survives the loss of one)
	Name  string // cluster name (default "fleet")
	// Hosts are the nodes' host names or addresses, one per node. Empty: every node on
	// 127.0.0.1 (a trial on one machine), each port then offset by the node's index.
	Hosts []string
	// ClientPort, ClusterPort and HTTPPort are the client, route and monitoring ports
	// (default 4222, 6222, 8222).
	ClientPort, ClusterPort, HTTPPort int
	// StoreDir is where each node keeps JetStream's files: StoreDir/node-N (absolute,
	// or relative to the node's working directory).
	StoreDir string
	// TLSDir names the TLS files each node reads: TLSDir/ca.pem (the CA terminals and
	// nodes trust), TLSDir/node-N.pem and TLSDir/node-N-key.pem (its certificate, for
	// clients and routes, both verified). Empty: no TLS (a trial on one machine only).
	TLSDir string
}

// node is what differs between the nodes: name, host and ports.
type node struct {
	name                         string
	host                         string
	client, cluster, http, index int
}

func (c *ClusterConfig) nodes() ([]node, error) {
	if c.Nodes < 3 || c.Nodes > 9 {
		return nil, fmt.Errorf("fleet cluster: %d nodes: give 3 to 9 (3 or 5 usual)", c.Nodes)
	}
	if len(c.Hosts) != 0 && len(c.Hosts) != c.Nodes {
		return nil, fmt.Errorf("fleet cluster: %d hosts for %d nodes", len(c.Hosts), c.Nodes)
	}
	port := func(p, def int) int {
		if p == 0 {
			return def
		}
		return p
	}
	out := make([]node, c.Nodes)
	for i := range out {
		n := node{name: fmt.Sprintf("fleet-%d", i+1), host: "127.0.0.1", index: i + 1,
			client: port(c.ClientPort, 4222), cluster: port(c.ClusterPort, 6222), http: port(c.HTTPPort, 8222)}
		if len(c.Hosts) == 0 {
			n.client, n.cluster, n.http = n.client+i, n.cluster+i, n.http+i
		} else {
			n.host = c.Hosts[i]
			if n.host == "" || strings.ContainsAny(n.host, " \t\n\"'{}[],:#") {
				return nil, fmt.Errorf("fleet cluster: host %q", n.host)
			}
		}
		for _, p := range []int{n.client, n.cluster, n.http} {
			if p <= 0 || p > 65535 {
				return nil, fmt.Errorf("fleet cluster: port %d", p)
			}
		}
		out[i] = n
	}
	return out, nil
}

// NodeConfig is node i's (0-based) nats-server configuration for the fleet of reg:
// JetStream with its store, the cluster's routes to every node, TLS files named when
// TLSDir is set, a monitoring port, and the accounts of the registry (AccountsConfig:
// the fleet's account with the operator's user, an account per terminal).
func (c *ClusterConfig) NodeConfig(reg *Registry, i int) ([]byte, error) {
	if err := reg.Check(); err != nil {
		return nil, err
	}
	ns, err := c.nodes()
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= len(ns) {
		return nil, errors.New("fleet cluster: no such node")
	}
	n := ns[i]
	name := c.Name
	if name == "" {
		name = "fleet"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s of the fleet's %d-node JetStream cluster %q (posctl fleet cluster-config; docs/fleet.md).\n", n.name, len(ns), name)
	fmt.Fprintf(&b, "# Written from terminals.json: run the command again and reload (nats-server --signal reload) after add-terminal.\n")
	fmt.Fprintf(&b, "server_name: %s\n", q(n.name))
	fmt.Fprintf(&b, "listen: %s\n", q(hostport(n.host, n.client)))
	fmt.Fprintf(&b, "http: %s  # monitoring: /varz, /jsz?leader-only=true (which node leads each stream)\n", q(hostport(n.host, n.http)))
	b.WriteString("max_payload: 1MB\n")
	fmt.Fprintf(&b, "jetstream {\n  store_dir: %s\n}\n", q(filepath.Join(c.StoreDir, fmt.Sprintf("node-%d", n.index))))
	tlsBlock := func(indent string) {
		if c.TLSDir == "" {
			return
		}
		fmt.Fprintf(&b, "%stls {\n", indent)
		fmt.Fprintf(&b, "%s  cert_file: %s\n", indent, q(filepath.Join(c.TLSDir, fmt.Sprintf("node-%d.pem", n.index))))
		fmt.Fprintf(&b, "%s  key_file: %s\n", indent, q(filepath.Join(c.TLSDir, fmt.Sprintf("node-%d-key.pem", n.index))))
		fmt.Fprintf(&b, "%s  ca_file: %s\n", indent, q(filepath.Join(c.TLSDir, "ca.pem")))
		if indent != "" { // routes: each node proves itself with its certificate
			fmt.Fprintf(&b, "%s  verify: true\n", indent)
		}
		fmt.Fprintf(&b, "%s}\n", indent)
	}
	tlsBlock("")
	fmt.Fprintf(&b, "cluster {\n  name: %s\n  listen: %s\n  routes: [\n", q(name), q(hostport(n.host, n.cluster)))
	for _, o := range ns {
		fmt.Fprintf(&b, "    %s\n", q("nats-route://"+hostport(o.host, o.cluster)))
	}
	b.WriteString("  ]\n")
	tlsBlock("  ")
	b.WriteString("}\n")
	accounts, err := AccountsConfig(reg)
	if err != nil {
		return nil, err
	}
	b.WriteString(accounts)
	return []byte(b.String()), nil
}

// ClientURLs are the nodes' client URLs (tls:// when TLSDir is set), comma-separated:
// the terminals' [fleet] url and the tools' --url.
func (c *ClusterConfig) ClientURLs() (string, error) {
	ns, err := c.nodes()
	if err != nil {
		return "", err
	}
	scheme := "nats://"
	if c.TLSDir != "" {
		scheme = "tls://"
	}
	us := make([]string, len(ns))
	for i, n := range ns {
		us[i] = scheme + hostport(n.host, n.client)
	}
	return strings.Join(us, ","), nil
}

// MonitorURLs are the nodes' monitoring URLs (http://host:port).
func (c *ClusterConfig) MonitorURLs() ([]string, error) {
	ns, err := c.nodes()
	if err != nil {
		return nil, err
	}
	us := make([]string, len(ns))
	for i, n := range ns {
		us[i] = "http://" + hostport(n.host, n.http)
	}
	return us, nil
}

// Write writes node-1.conf … node-N.conf into dir (0600: they name every terminal's
// key; no secret, but the operator's business) and returns their paths.
func (c *ClusterConfig) Write(reg *Registry, dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("fleet cluster: %w", err)
	}
	var paths []string
	for i := range c.Nodes {
		b, err := c.NodeConfig(reg, i)
		if err != nil {
			return nil, err
		}
		p := filepath.Join(dir, fmt.Sprintf("node-%d.conf", i+1))
		if err := writeFile(p, b, 0o600); err != nil {
			return nil, fmt.Errorf("fleet cluster: %w", err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}

func hostport(h string, p int) string { return net.JoinHostPort(h, strconv.Itoa(p)) }

// q quotes a string for the nats-server configuration (its strings take JSON escapes).
func q(s string) string { return strconv.Quote(s) }

func list(ss []string) string {
	qs := make([]string, len(ss))
	for i, s := range ss {
		qs[i] = q(s)
	}
	return "[" + strings.Join(qs, ", ") + "]"
}
