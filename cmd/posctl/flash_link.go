package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/packterm/pos/drivers/serialport"
)

// linkSpec is a --to / --listen value: serial:/dev/ttyUSB0 or tcp:HOST:PORT.
type linkSpec struct {
	scheme, addr string
	baud         int
}

func parseLink(s string, baud int) (linkSpec, error) {
	scheme, addr, ok := strings.Cut(s, ":")
	if !ok || addr == "" || (scheme != "serial" && scheme != "tcp") {
		return linkSpec{}, fmt.Errorf("link %q: want serial:/dev/ttyUSB0 or tcp:HOST:PORT", s)
	}
	return linkSpec{scheme, addr, baud}, nil
}

// dialer opens the link anew for each attempt of a transfer.
func (l linkSpec) dialer(log *slog.Logger) func(ctx context.Context) (io.ReadWriteCloser, error) {
	return func(ctx context.Context) (io.ReadWriteCloser, error) {
		if l.scheme == "tcp" {
			var d net.Dialer
			ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			return d.DialContext(ctx, "tcp", l.addr)
		}
		return openSerialLink(ctx, l.addr, l.baud, log)
	}
}

// serialLink adapts a serialport.Port to the flash link: reads fail as soon as the port
// reports the device lost (cable or USB adapter pulled), so a transfer reconnects at once
// instead of waiting for its reply timeout.
type serialLink struct {
	p       *serialport.Port
	pending []byte
}

func openSerialLink(ctx context.Context, path string, baud int, log *slog.Logger) (*serialLink, error) {
	p, err := serialport.Open(serialport.Config{Path: path, Baud: baud, Logger: log})
	if err != nil {
		return nil, err
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := p.WaitConnected(wctx); err != nil {
		p.Close()
		return nil, err
	}
	p.Discard() // the Connected packet and any stale bytes
	return &serialLink{p: p}, nil
}

func (s *serialLink) Read(b []byte) (int, error) {
	for len(s.pending) == 0 {
		pk, err := s.p.Next(context.Background())
		if err != nil {
			return 0, io.EOF
		}
		if pk.Data == nil {
			if pk.State == serialport.Disconnected {
				return 0, fmt.Errorf("serial link: %w", serialport.ErrDisconnected)
			}
			continue
		}
		s.pending = pk.Data
	}
	n := copy(b, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}

func (s *serialLink) Write(b []byte) (int, error) { return s.p.Write(b) }
func (s *serialLink) Close() error                { return s.p.Close() }

// readToken reads the technician token from --token-file, else $POS_TECH_TOKEN.
func readToken(file string) ([]byte, error) {
	if file == "" {
		if t := os.Getenv("POS_TECH_TOKEN"); t != "" {
			return []byte(t), nil
		}
		return nil, fmt.Errorf("no technician token: give --token-file or set POS_TECH_TOKEN")
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	t := strings.TrimRight(string(b), "\r\n")
	if t == "" {
		return nil, fmt.Errorf("%s: empty technician token", file)
	}
	return []byte(t), nil
}
