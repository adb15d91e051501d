// Package flashserial carries the maintenance link (firmware/flash) over a serial port
// kept by drivers/serialport: Open gives the host side a link whose reads fail as soon as
// the port reports the device lost (a pulled cable or USB adapter), so a transfer
// reconnects at once instead of waiting for its reply timeout; Serve runs a flash.Server on
// a terminal's maintenance port for as long as the context lasts, reopening the port after
// each loss.
package flashserial

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/packterm/pos/drivers/serialport"
	"github.com/packterm/pos/firmware/flash"
)

// Link is an open serial maintenance link.
type Link struct {
	p       *serialport.Port
	pending []byte
}

var _ io.ReadWriteCloser = (*Link)(nil)

// Open opens the serial device at path (8N1 at baud) and waits up to wait for it to be
// present (10 s when 0).
func Open(ctx context.Context, path string, baud int, wait time.Duration, log *slog.Logger) (*Link, error) {
	p, err := serialport.Open(serialport.Config{Path: path, Baud: baud, Logger: log})
	if err != nil {
		return nil, fmt.Errorf("flashserial: %w", err)
	}
	if wait <= 0 {
		wait = 10 * time.Second
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	if err := p.WaitConnected(wctx); err != nil {
		p.Close()
		return nil, fmt.Errorf("flashserial: %w", err)
	}
	p.Discard() // the Connected packet and any stale bytes
	return &Link{p: p}, nil
}

// Read returns received bytes; it fails once the device is lost.
func (l *Link) Read(b []byte) (int, error) {
	for len(l.pending) == 0 {
		pk, err := l.p.Next(context.Background())
		if err != nil {
			return 0, io.EOF
		}
		if pk.Data == nil {
			if pk.State == serialport.Disconnected {
				return 0, fmt.Errorf("flashserial: %w", serialport.ErrDisconnected)
			}
			continue
		}
		l.pending = pk.Data
	}
	n := copy(b, l.pending)
	l.pending = l.pending[n:]
	return n, nil
}

// Write sends bytes; it fails while the device is absent.
func (l *Link) Write(b []byte) (int, error) { return l.p.Write(b) }

// Close closes the port.
func (l *Link) Close() error { return l.p.Close() }

// Serve runs srv on the serial maintenance port at path until ctx ends, reopening the
// port whenever it is lost. It returns nil when ctx ends, or a configuration error.
func Serve(ctx context.Context, srv *flash.Server, path string, baud int, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	for ctx.Err() == nil {
		l, err := Open(ctx, path, baud, 0, log)
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			continue // absent: keep waiting for it
		}
		if err != nil {
			return err
		}
		err = srv.Serve(ctx, l)
		l.Close()
		if err != nil {
			log.Info("flashserial: maintenance port lost, reopening", "err", err)
		}
	}
	return nil
}
