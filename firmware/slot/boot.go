package slot

import (
	"fmt"
	"path/filepath"

	"github.com/packterm/pos/firmware/bundle"
)

// maxCountedBoots caps the boot counter (a trial slot with no fallback keeps booting;
// ParseState refuses larger counts).
const maxCountedBoots = 1000

// Choice is the slot Boot picked.
type Choice struct {
	Slot    string
	Dir     string
	Posd    string // path of the slot's posd
	Version bundle.Version
	Trial   bool // booting on trial: the daemon must call MarkGood once healthy
	Boots   int  // trial starts so far, this one included
	Rolled  bool // the previous slot came back on this boot
}

// Boot picks the slot to start and records the start: a slot on trial gets a boot
// counted, and after MaxBoots starts without MarkGood the previous slot comes back. A slot
// whose files do not match its header is never chosen. A missing or unreadable state file
// is rebuilt from the slots (the newest valid one, on trial, the other as fallback).
func (s *Store) Boot() (c Choice, err error) {
	err = s.locked(func() error {
		c, err = s.boot()
		return err
	})
	return c, err
}

func (s *Store) boot() (Choice, error) {
	st, err := s.State()
	loaded := st
	if err != nil || st.Active == "" {
		if err != nil {
			s.log.Warn("slot: state unreadable, rebuilding it from the slots", "err", err)
		}
		st, err = s.rebuild(st.HighWater)
		if err != nil {
			return Choice{}, err
		}
	}
	var rolled bool
	if st.Trial && st.Boots >= s.opt.MaxBoots {
		if _, err := s.usable(st.Previous); err == nil {
			s.log.Warn("slot: trial slot never marked good, rolling back", "failed", st.Active, "boots", st.Boots, "back_to", st.Previous)
			st = State{Active: st.Previous, HighWater: st.HighWater}
			rolled = true
		} else {
			s.log.Error("slot: trial slot never marked good and no previous slot to go back to", "slot", st.Active)
		}
	}
	h, err := s.usable(st.Active)
	if err != nil {
		s.log.Error("slot: active slot unusable", "slot", st.Active, "err", err)
		if _, perr := s.usable(st.Previous); perr != nil {
			return Choice{}, fmt.Errorf("slot: boot: %v; previous: %v: %w", err, perr, ErrNoBootable)
		}
		st = State{Active: st.Previous, HighWater: st.HighWater}
		rolled = true
		if h, err = s.usable(st.Active); err != nil {
			return Choice{}, fmt.Errorf("slot: boot: %w", err)
		}
	}
	if st.Trial && st.Boots < maxCountedBoots {
		st.Boots++
	}
	if st != loaded {
		if err := s.writeState(st); err != nil {
			return Choice{}, err
		}
	}
	posd, _ := h.Manifest.Find(bundle.Posd)
	return Choice{Slot: st.Active, Dir: s.Dir(st.Active), Posd: filepath.Join(s.Dir(st.Active), posd.Name),
		Version: h.Manifest.Version, Trial: st.Trial, Boots: st.Boots, Rolled: rolled}, nil
}

// usable verifies slot sl ("" is never usable).
func (s *Store) usable(sl string) (*bundle.Header, error) {
	if sl == "" {
		return nil, fmt.Errorf("slot: none: %w", ErrNoBootable)
	}
	return s.Verify(sl)
}

// rebuild makes a state from the slots: the valid one with the newest version is active
// on trial, the other valid one (if any) its fallback.
func (s *Store) rebuild(hw bundle.Version) (State, error) {
	ha, errA := s.Verify(A)
	hb, errB := s.Verify(B)
	var st State
	switch {
	case errA != nil && errB != nil:
		return State{}, fmt.Errorf("slot: boot: a: %v; b: %v: %w", errA, errB, ErrNoBootable)
	case errB != nil:
		st = State{Active: A}
	case errA != nil:
		st = State{Active: B}
	case hb.Manifest.Version.Less(ha.Manifest.Version):
		st = State{Active: A, Previous: B}
	default:
		st = State{Active: B, Previous: A}
	}
	st.Trial = true
	st.HighWater = hw
	for _, h := range []*bundle.Header{ha, hb} {
		if h != nil && st.HighWater.Less(h.Manifest.Version) {
			st.HighWater = h.Manifest.Version
		}
	}
	return st, nil
}

// MarkGood commits the active slot: the daemon calls it once healthy (ledger loaded,
// hardware answered). It is a no-op when the slot is not on trial.
func (s *Store) MarkGood() error {
	return s.locked(s.markGood)
}

func (s *Store) markGood() error {
	st, err := s.State()
	if err != nil {
		return err
	}
	if !st.Trial {
		return nil
	}
	st.Trial, st.Boots = false, 0
	if err := s.writeState(st); err != nil {
		return err
	}
	s.log.Info("slot: marked good", "slot", st.Active)
	return nil
}
