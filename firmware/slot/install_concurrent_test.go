package slot_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/firmware/slot"
	"github.com/packterm/pos/internal/installlock/installtest"
)

// TestInstallConcurrent: firmware 4.0.0 and 5.0.0 installed at once (two stores on one
// root, as posd and posctl on the board would be) over a committed 3.0.0: the one that
// takes the lock first is installed whole and on trial, the other is refused (a trial is
// pending); the active slot verifies and is the highest version reported installed.
func TestInstallConcurrent(t *testing.T) {
	bundles := map[uint64][]byte{}
	for _, v := range []uint64{3, 4, 5} {
		bundles[v] = key.Build(bundletest.Spec{Version: fmt.Sprintf("%d.0.0", v)})
	}
	installOn := func(root string, v uint64) error {
		s, err := slot.Open(root, slot.Options{Trust: key.Trust(), Target: &bundletest.DefaultTarget})
		if err != nil {
			return err
		}
		r, err := bundle.NewReader(bytes.NewReader(bundles[v]), key.Trust())
		if err != nil {
			return err
		}
		_, err = s.Install(context.Background(), r)
		return err
	}
	trials := 100
	if testing.Short() {
		trials = 20
	}
	installtest.Run(t, trials, installtest.Race{
		Versions: func(int) []uint64 { return []uint64{4, 5} },
		Setup: func(root string) error {
			if err := installOn(root, 3); err != nil {
				return err
			}
			return open(t, root).MarkGood()
		},
		Install: func(_ int, root string, v uint64) error { return installOn(root, v) },
		Refused: func(err error) bool {
			return errors.Is(err, slot.ErrTrialPending) || errors.Is(err, slot.ErrRollback)
		},
		Installed: func(root string) (uint64, error) {
			s := open(t, root)
			st, err := s.State()
			if err != nil {
				return 0, err
			}
			h, err := s.Verify(st.Active)
			if err != nil {
				return 0, err
			}
			return uint64(h.Manifest.Version.Major), nil
		},
	})
}
