package terminaltest

import (
	"slices"
	"sync"

	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/display"
)

// Screen is a fake character display (display.Screen) that can be read back
// (terminal.PanelReader) when ReadBack is set. Set its fields before the machine runs,
// or under Lock while it runs.
type Screen struct {
	Geometry display.Geometry // zero value: 20×4
	// ReadBack: the panel's R/W line is wired (CanCheck).
	ReadBack bool
	// Err, when set, is returned by Show (nothing is shown) and by Check: a panel that
	// does not answer.
	Err error

	sync.Mutex
	shown     [][]string
	backlight bool
	inits     int
}

var (
	_ display.Screen       = (*Screen)(nil)
	_ terminal.PanelReader = (*Screen)(nil)
)

// Show implements display.Screen: it keeps the rows, padded or cut to the geometry.
func (s *Screen) Show(lines ...string) error {
	s.Lock()
	defer s.Unlock()
	if s.Err != nil {
		return s.Err
	}
	g := s.geo()
	rows := make([]string, g.Rows)
	for i := range rows {
		if i < len(lines) {
			r := []rune(lines[i])
			if len(r) > g.Cols {
				r = r[:g.Cols]
			}
			rows[i] = string(r)
		}
	}
	s.shown = append(s.shown, rows)
	return nil
}

// SetBacklight implements display.Screen.
func (s *Screen) SetBacklight(on bool) error {
	s.Lock()
	defer s.Unlock()
	s.backlight = on
	return nil
}

// Cols implements display.Screen.
func (s *Screen) Cols() int { s.Lock(); defer s.Unlock(); return s.geo().Cols }

// Rows implements display.Screen.
func (s *Screen) Rows() int { s.Lock(); defer s.Unlock(); return s.geo().Rows }

func (s *Screen) geo() display.Geometry {
	if s.Geometry.Cols == 0 {
		return display.LCD20x4
	}
	return s.Geometry
}

// CanCheck implements terminal.PanelReader: ReadBack.
func (s *Screen) CanCheck() bool { s.Lock(); defer s.Unlock(); return s.ReadBack }

// Check implements terminal.PanelReader: Err.
func (s *Screen) Check() error { s.Lock(); defer s.Unlock(); return s.Err }

// Init implements terminal.PanelReader: it counts.
func (s *Screen) Init() error {
	s.Lock()
	defer s.Unlock()
	s.inits++
	return nil
}

// SetErr sets Err while the machine runs.
func (s *Screen) SetErr(err error) { s.Lock(); s.Err = err; s.Unlock() }

// Lines is what the screen shows now (nil before the first Show).
func (s *Screen) Lines() []string {
	s.Lock()
	defer s.Unlock()
	if len(s.shown) == 0 {
		return nil
	}
	return slices.Clone(s.shown[len(s.shown)-1])
}

// Shown is every screen shown, oldest first.
func (s *Screen) Shown() [][]string {
	s.Lock()
	defer s.Unlock()
	out := make([][]string, len(s.shown))
	for i, l := range s.shown {
		out[i] = slices.Clone(l)
	}
	return out
}

// Backlight is the backlight's state.
func (s *Screen) Backlight() bool { s.Lock(); defer s.Unlock(); return s.backlight }

// Inits counts the panel's initialisations (Init).
func (s *Screen) Inits() int { s.Lock(); defer s.Unlock(); return s.inits }
