// Package scanneremul is an emulated serial barcode scanner on a pseudo-terminal.
//
// Scan writes a code as a real scanner configured the same way would: the AIM identifier when
// enabled, the text, the suffix, one byte at a time at the pace of the configured baud rate
// (8N1: ten bit times a byte) on an injectable clock. ScanImage decodes an image first with the
// same scanner.ImageDecoder the terminal uses. WriteRaw injects noise; Unplug and Replug make
// the scanner vanish and come back at the same path.
package scanneremul
