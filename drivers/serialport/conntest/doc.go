// Package conntest records and plays back the byte exchanges of a serial driver, in the
// manner of periph's conntest (Record, Playback): a session recorded once against the emulator
// (or the real device) becomes a fast regression test that needs neither, and fails on the
// first byte the driver sends differently.
package conntest
