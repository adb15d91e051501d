package display

// Screen is what the terminal needs from a character display: whole-screen updates and a
// backlight. The retail state machine talks to this interface, not to a driver.
type Screen interface {
	// Show replaces the whole screen: one string per row (missing rows are blank, long
	// rows are cut at the last column).
	Show(lines ...string) error
	// Backlight switches the backlight, if the panel has one wired.
	SetBacklight(on bool) error
	// Cols and Rows return the geometry.
	Cols() int
	Rows() int
}

// Geometry is a panel's size in characters.
type Geometry struct {
	Cols, Rows int
}

// The two supported panels.
var (
	LCD16x2 = Geometry{Cols: 16, Rows: 2}
	LCD20x4 = Geometry{Cols: 20, Rows: 4}
)
