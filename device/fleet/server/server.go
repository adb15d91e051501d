package server

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// DefaultListen is where posctl fleet serve listens unless told.
const DefaultListen = "127.0.0.1:4222"

// Options configure an embedded server.
type Options struct {
	DataDir  string    // JetStream's file store lives in DataDir/jetstream
	Listen   string    // client listener host:port (port 0: any free port); default DefaultListen
	Registry *Registry // required: who may connect
	TLS      *tls.Config

	// Cluster: a node of a JetStream cluster (tests; a real operator runs nats-server).
	Name          string   // server name, unique in the cluster
	Cluster       string   // cluster name ("" = single node)
	ClusterListen string   // host:port of the route listener
	Routes        []string // host:port of every node's route listener
	// SyncAlways fsyncs JetStream's file store on every write. A single node has no
	// replica to fall back on: posctl fleet serve sets it.
	SyncAlways bool
	// Debug logs the server's own messages to stderr.
	Debug bool
}

// Server is a running embedded server.
type Server struct {
	ns  *server.Server
	mu  sync.Mutex
	so  *server.Options // in force: SetRegistry reloads a copy with the new users
	tls bool
}

// Start starts the server and waits until it accepts connections.
func Start(o Options) (*Server, error) {
	if o.Registry == nil {
		return nil, errors.New("fleet server: no registry")
	}
	if err := o.Registry.Check(); err != nil {
		return nil, err
	}
	if o.Listen == "" {
		o.Listen = DefaultListen
	}
	host, port, err := hostPort(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("fleet server: listen: %w", err)
	}
	so := &server.Options{}
	if err := setAccounts(so, o.Registry); err != nil {
		return nil, err
	}
	so.ServerName, so.Host, so.Port = o.Name, host, port
	so.JetStream, so.StoreDir, so.SyncAlways = true, filepath.Join(o.DataDir, "jetstream"), o.SyncAlways
	so.NoSigs, so.NoLog, so.Debug, so.MaxPayload = true, !o.Debug, o.Debug, 1<<20
	if o.TLS != nil {
		so.TLSConfig, so.TLS = o.TLS, true
	}
	if o.Cluster != "" {
		h, p, err := hostPort(o.ClusterListen)
		if err != nil {
			return nil, fmt.Errorf("fleet server: cluster listen: %w", err)
		}
		so.Cluster = server.ClusterOpts{Name: o.Cluster, Host: h, Port: p}
		for _, r := range o.Routes {
			u, err := url.Parse("nats://" + r)
			if err != nil {
				return nil, fmt.Errorf("fleet server: route %q: %w", r, err)
			}
			so.Routes = append(so.Routes, u)
		}
	}
	ns, err := server.NewServer(so)
	if err != nil {
		return nil, fmt.Errorf("fleet server: %w", err)
	}
	if o.Debug {
		ns.ConfigureLogger()
	}
	ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, errors.New("fleet server: not ready after 10 s")
	}
	return &Server{ns: ns, so: so, tls: o.TLS != nil}, nil
}

// setAccounts puts the registry's accounts (AccountsConfig) in so, in place of any.
func setAccounts(so *server.Options, r *Registry) error {
	conf, err := AccountsConfig(r)
	if err != nil {
		return err
	}
	so.Accounts, so.Nkeys, so.Users = nil, nil, nil
	if err := so.ProcessConfigString(conf); err != nil {
		return fmt.Errorf("fleet server: accounts: %w", err)
	}
	return nil
}

func hostPort(s string) (string, int, error) {
	h, p, err := net.SplitHostPort(s)
	if err != nil {
		return "", 0, err
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 0 || n > 65535 {
		return "", 0, fmt.Errorf("port %q", p)
	}
	if n == 0 {
		n = server.RANDOM_PORT
	}
	return h, n, nil
}

// SetRegistry reloads the server's accounts from r: a terminal added may connect, one
// removed is disconnected and may not connect again.
func (s *Server) SetRegistry(r *Registry) error {
	if err := r.Check(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// nats-server binds an account's service imports to the live exporting account only
	// when it updates an account that exists: a reload that adds an account leaves the
	// new account's imports on the parsed copy of the fleet's account, and its requests
	// find no responders (the account is right from the next reload on). So a reload that
	// adds terminals is applied twice (TestRegistryChangesWithoutRestart).
	added := false
	for _, t := range r.Terminals {
		if _, err := s.ns.LookupAccount(TerminalAccount(t.ID)); err != nil {
			added = true
		}
	}
	for range 1 + btoi(added) {
		so := s.so.Clone()
		if err := setAccounts(so, r); err != nil {
			return err
		}
		keep := so.Clone()
		if err := s.ns.ReloadOptions(so); err != nil {
			return fmt.Errorf("fleet server: reloading the registry: %w", err)
		}
		s.so = keep
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// URL is the client URL (nats://, or tls:// when TLS is on).
func (s *Server) URL() string {
	u := s.ns.ClientURL()
	if s.tls && strings.HasPrefix(u, "nats://") {
		u = "tls" + u[len("nats"):]
	}
	return u
}

// Addr is the client listener's address.
func (s *Server) Addr() net.Addr { return s.ns.Addr() }

// JetStreamIsLeader reports whether this node is the JetStream meta leader.
func (s *Server) JetStreamIsLeader() bool { return s.ns.JetStreamIsLeader() }

// NATS is the underlying server (tests).
func (s *Server) NATS() *server.Server { return s.ns }

// Shutdown stops the server and waits for it.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}
