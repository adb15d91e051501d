//go:build !linux

package journal

const boltMmapFlags = 0
