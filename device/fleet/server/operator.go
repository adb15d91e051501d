package server

import (
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/packterm/pos/device/fleet"
)

// ConnectOperator connects the operator's tools and service with the operator's
// credentials: its nkey seed, or a .creds file on a cluster in operator/account (JWT)
// mode (ca: trust this CA for a tls:// server; "" for none).
func ConnectOperator(url, credsFile, ca string) (*nats.Conn, error) {
	opt, err := fleet.CredentialsOption(credsFile)
	if err != nil {
		return nil, fmt.Errorf("fleet: operator credentials: %w", err)
	}
	opts := []nats.Option{opt, nats.Name("posctl fleet"), nats.MaxReconnects(-1), nats.ReconnectWait(time.Second)}
	if ca != "" {
		opts = append(opts, nats.RootCAs(ca))
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("fleet: connect %s: %w", url, err)
	}
	return nc, nil
}

// ConnectInProcess connects the operator's service to this embedded server without the
// network (no TLS needed in the same process).
func (s *Server) ConnectInProcess(seedFile string) (*nats.Conn, error) {
	opt, err := nats.NkeyOptionFromSeed(seedFile)
	if err != nil {
		return nil, fmt.Errorf("fleet: operator credentials: %w", err)
	}
	nc, err := nats.Connect("", opt, nats.Name("fleet service"), nats.InProcessServer(s.ns), nats.MaxReconnects(-1))
	if err != nil {
		return nil, fmt.Errorf("fleet: in-process connection: %w", err)
	}
	return nc, nil
}
