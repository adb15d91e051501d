package flash

import (
	"bufio"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/internal/atomicfile"
)

// end completes the transfer: whole-file hash, then install.
func (ss *session) end(ctx context.Context) error {
	t := ss.t
	if t == nil {
		return ss.fail(codeProtocol, "end before begin")
	}
	if t.off != t.b.Size {
		return ss.fail(codeProtocol, "end at %d of %d bytes", t.off, t.b.Size)
	}
	if err := t.persist(); err != nil {
		return ss.fail(codeInternal, "%v", err)
	}
	if _, err := t.f.Seek(0, io.SeekStart); err != nil {
		return ss.fail(codeInternal, "%v", err)
	}
	h := sha256.New()
	if _, err := io.Copy(h, t.f); err != nil {
		return ss.fail(codeInternal, "%v", err)
	}
	if [32]byte(h.Sum(nil)) != t.b.Sum {
		ss.t.discard()
		ss.t = nil
		return ss.fail(codeRefused, "received %v does not match its announced SHA-256", t.b.Kind)
	}
	info, err := ss.install(ctx, t)
	ss.t.discard()
	ss.t = nil
	if err != nil {
		return ss.fail(codeRefused, "%v", err)
	}
	ss.s.remember(t.b, info, ss.clock.Now())
	ss.log.Info("flash: installed", "kind", t.b.Kind.String(), "info", info)
	if ss.s.OnInstalled != nil {
		ss.s.OnInstalled(t.b.Kind, info)
	}
	return ss.l.send(tDone, []byte(info))
}

func (ss *session) install(ctx context.Context, t *transfer) (string, error) {
	if _, err := t.f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	if t.b.Kind == Firmware {
		r, err := bundle.NewReader(bufio.NewReaderSize(t.f, 64<<10), ss.s.Trust)
		if err != nil {
			return "", err
		}
		in, err := ss.s.Firmware.Install(ctx, r)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("firmware %v installed in slot %s; it boots on trial at the next start", in.Version, in.Slot), nil
	}
	it := ss.s.Items[t.b.Kind]
	if it.Install != nil {
		return it.Install(ctx, t.path)
	}
	if it.Verify == nil {
		return "", fmt.Errorf("flash: no verifier for %v: refused", t.b.Kind)
	}
	if err := it.Verify(ctx, t.path); err != nil {
		return "", err
	}
	if err := replaceFrom(it.Path, t.f, t.b.Sum); err != nil {
		return "", err
	}
	return fmt.Sprintf("%v installed (%d bytes)", t.b.Kind, t.b.Size), nil
}

// replaceFrom copies the verified spool file to path atomically, checking on the way that
// the bytes are still those verified.
func replaceFrom(path string, src *os.File, sum [32]byte) error {
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return err
	}
	err := atomicfile.Write(path, 0o644, func(w io.Writer) error {
		h := sha256.New()
		if _, err := io.Copy(io.MultiWriter(w, h), src); err != nil {
			return err
		}
		if [32]byte(h.Sum(nil)) != sum {
			return errors.New("spool changed after verification")
		}
		return nil
	}, nil)
	if err != nil {
		return fmt.Errorf("flash: install %s: %w", path, err)
	}
	return nil
}
