package flash

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/packterm/pos/firmware/bundle"
)

func (ss *session) begin(p []byte) error {
	ss.closeTransfer()
	b, err := decodeBegin(p)
	if err != nil {
		return ss.fail(codeProtocol, "%v", err)
	}
	max := int64(MaxFirmwareSize)
	switch it, ok := ss.s.Items[b.Kind]; {
	case b.Kind == Firmware:
		if ss.s.Firmware == nil || ss.s.Trust.Len() == 0 {
			return ss.fail(codeRefused, "this terminal takes no firmware over the link")
		}
	case ok:
		max = it.MaxSize
		if max <= 0 {
			max = DefaultMaxItemSize
		}
	default:
		return ss.fail(codeRefused, "this terminal takes no %v", b.Kind)
	}
	if b.Size > max {
		return ss.fail(codeRefused, "%v of %d bytes, at most %d", b.Kind, b.Size, max)
	}
	if info, ok := ss.s.recall(b, ss.clock.Now()); ok {
		return ss.l.send(tDone, []byte(info+" (already installed)"))
	}
	t, err := openTransfer(ss.s.SpoolDir, b)
	if err != nil {
		return ss.fail(codeInternal, "%v", err)
	}
	ss.t = t
	t.syncedAt = ss.clock.Now()
	if t.off > 0 {
		ss.log.Info("flash: resuming", "kind", b.Kind.String(), "offset", t.off, "size", b.Size)
		if b.Kind == Firmware {
			if err := ss.checkHeader(); err != nil {
				ss.t.discard()
				ss.t = nil
				return ss.fail(codeRefused, "%v", err)
			}
		}
	}
	return ss.l.send(tResume, encodeOffset(t.off))
}

func (ss *session) data(p []byte) error {
	t := ss.t
	if t == nil {
		return ss.fail(codeProtocol, "data before begin")
	}
	off, err := decodeOffset(p, "data")
	if err != nil {
		return ss.fail(codeProtocol, "%v", err)
	}
	chunk := p[8:]
	if off != t.off {
		// A retransmission or a lost frame: tell the host where we are.
		return ss.l.send(tAck, encodeOffset(t.off))
	}
	if off+int64(len(chunk)) > t.b.Size {
		return ss.fail(codeProtocol, "data past the announced size %d", t.b.Size)
	}
	if _, err := t.f.Write(chunk); err != nil {
		return ss.fail(codeInternal, "spool: %v", err)
	}
	t.off += int64(len(chunk))
	every, interval := ss.s.SyncEvery, ss.s.SyncInterval
	if every <= 0 {
		every = 4 << 20
	}
	if interval <= 0 {
		interval = 2 * time.Second
	}
	if t.off-t.synced >= every || ss.clock.Since(t.syncedAt) >= interval {
		t.syncedAt = ss.clock.Now()
		if err := t.persist(); err != nil {
			return ss.fail(codeInternal, "%v", err)
		}
	}
	if t.b.Kind == Firmware && !t.headerOK {
		if err := ss.checkHeader(); err != nil {
			ss.t.discard()
			ss.t = nil
			return ss.fail(codeRefused, "%v", err)
		}
	}
	return ss.l.send(tAck, encodeOffset(t.off))
}

// checkHeader verifies a firmware bundle's header as soon as the spool holds it: trusted
// signature, declared size, and the installer's own checks (target, anti-rollback).
func (ss *session) checkHeader() error {
	t := ss.t
	h, err := bundle.ReadHeader(io.NewSectionReader(t.f, 0, t.off))
	if errors.Is(err, io.ErrUnexpectedEOF) && t.off < t.b.Size {
		return nil // not all in yet
	}
	if err != nil {
		return err
	}
	if err := h.Verify(ss.s.Trust); err != nil {
		return err
	}
	if h.BundleSize() != t.b.Size {
		return fmt.Errorf("flash: bundle of %d bytes announced as %d", h.BundleSize(), t.b.Size)
	}
	if err := ss.s.Firmware.Check(h.Manifest); err != nil {
		return err
	}
	t.headerOK = true
	ss.log.Info("flash: bundle header accepted", "version", h.Manifest.Version.String(), "key", h.KeyID.String())
	return nil
}
