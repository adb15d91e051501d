//go:build !production

package web

import (
	"context"
	"net/http"

	"github.com/packterm/pos/device/emulated"
	"github.com/packterm/pos/drivers/display/hd44780emul"
)

// Rig is the emulated terminal whose page and controls a Server adds (Options.Emulator).
type Rig = emulated.Rig

// routeEmulator adds the panel's font and, with Options.Emulator, the emulated terminal's
// page (then the root) and controls; it reports whether it took the root.
func (s *Server) routeEmulator() bool {
	s.mux.HandleFunc("GET /font.json", s.handleFont)
	if s.o.Emulator == nil {
		return false
	}
	s.emu = &emulator{rig: s.o.Emulator, s: s}
	s.emu.ctx, s.emu.cancel = context.WithCancel(context.Background())
	s.emu.routes(s.mux)
	s.mux.HandleFunc("GET /{$}", s.emu.handlePage)
	return true
}

// close stops the emulator's background drawings and waits for them (nil: none).
func (e *emulator) close() {
	if e != nil {
		e.cancel()
		e.wg.Wait()
	}
}

// handleFont serves the ROM's dot patterns of every character code (codes below 0x10 are
// CGRAM and come with the live state).
func (s *Server) handleFont(w http.ResponseWriter, r *http.Request) {
	font := make([][8]int, 256)
	for c := range 256 {
		g := hd44780emul.ROMGlyph(byte(c))
		for i, row := range g {
			font[c][i] = int(row)
		}
	}
	w.Header().Set("Cache-Control", "max-age=3600")
	writeJSON(w, http.StatusOK, font)
}
