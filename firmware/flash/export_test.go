package flash

// Connections is how many network connections the server is serving (tests wait on it
// for a session's end, which follows its last answer).
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nconns
}

// OfferedChunk is the data chunk a client takes from a HelloOK's payload.
var OfferedChunk = offeredChunk
