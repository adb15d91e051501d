//go:build !unix

package journal

import "os"

// mapFile reads path whole where mapping is not available.
func mapFile(path string) ([]byte, func() error, error) {
	b, err := os.ReadFile(path)
	return b, func() error { return nil }, err
}
