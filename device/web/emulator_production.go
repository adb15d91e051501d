//go:build production

package web

// Rig stands for the emulated terminal, which a production build (-tags production) has
// none of: Options.Emulator is ignored, the root is the status page.
type Rig struct{}

type emulator struct{}

func (s *Server) routeEmulator() bool { return false }

func (e *emulator) close() {}
