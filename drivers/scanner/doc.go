// Package scanner turns a barcode scanner's output into scan events.
//
// Serial scanners (SPEC §7; 9600 8N1 by default) send each code as one line: an optional AIM
// symbology identifier (ISO/IEC 15424, e.g. "]C0" Code 128, "]I0" ITF, "]Q1" QR, "]d1"
// DataMatrix), the data, and a configured suffix (CR, LF or CRLF). Framer splits the byte
// stream into lines, discards over-long lines and binary garbage (each with one log line), and
// ParseLine checks a line and splits off the AIM prefix. Serial reads a serialport.Port, reports
// unplug and replug as events, and reports the same code seen again within a short window
// (a retailer holding the code under the beam) only once.
//
// Images (files now, an HTTP upload or a camera later) are decoded to text by an ImageDecoder,
// so the scanner knows nothing of our code formats (SPEC §3); Images delivers them as the same
// events.
package scanner
