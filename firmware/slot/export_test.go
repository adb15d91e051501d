package slot

// SetFault makes every write of s ask fault first (tests of power cuts).
func (s *Store) SetFault(fault func(op, path string) error) { s.disk.fault = fault }
