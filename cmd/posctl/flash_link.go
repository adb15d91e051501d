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

	"github.com/packterm/pos/firmware/flash/flashserial"
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
		return flashserial.Open(ctx, l.addr, l.baud, 0, log)
	}
}

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
