package emulated

import (
	"testing"

	"github.com/packterm/pos/device/config"
)

// TestTerminalConfig: the shorthands of Options are mapped into the one configuration the
// assembly builds from (no second set of limits), and beside Options.Config they are an
// error rather than a silent override.
func TestTerminalConfig(t *testing.T) {
	c, err := Options{Dir: "/x", PerTicket: 20_00, OfflinePerTicket: 5_00, OfflineTotal: 7_00, Display: "16x2"}.TerminalConfig()
	if err != nil {
		t.Fatal(err)
	}
	if c.Limits.PerTicket != 20_00 || c.Limits.OfflinePerTicket != 5_00 || c.Limits.OfflineTotal != 7_00 || c.Display.String() != "16x2" || c.DataDir != "/x" {
		t.Errorf("mapped %+v", c)
	}
	file := config.Emulated()
	file.Limits.OfflinePerTicket = 5_00
	c, err = Options{Dir: "/y", Config: &file}.TerminalConfig()
	if err != nil || c.Limits.OfflinePerTicket != 5_00 || c.DataDir != "/y" || file.DataDir == "/y" {
		t.Errorf("Config: %+v %v", c, err)
	}
	if _, err := (Options{Config: &file, PerTicket: 30_00}).TerminalConfig(); err == nil {
		t.Error("Options.Config beside a shorthand accepted")
	}
}
