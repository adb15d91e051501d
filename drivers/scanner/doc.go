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
// USB keyboard scanners (most retail USB scanners present themselves as keyboards) are read
// through Linux evdev by Keyboard: it opens the device by its /dev/input/by-id name (listing
// the candidates when it is absent), takes an exclusive grab (EVIOCGRAB, through x/sys/unix) so
// codes never type into the console, decodes struct input_event records (24 bytes on 64-bit
// machines, 16 on 32-bit ARM) and turns key presses into text with the scanner's keymap (US
// QWERTY or French AZERTY: Shift, Caps Lock, AltGr, Ctrl, dead keys; autorepeat dropped);
// Enter ends a line as CR, Tab as HT. Keyboard is a Port, so Serial frames, parses and
// de-duplicates its lines exactly as a serial scanner's; unplugged (ENODEV, end of stream), it
// reports the disconnection and reopens the device by name with backoff on the injected clock.
//
// Images (files, an HTTP upload, a camera's frames) are decoded to text by an ImageDecoder,
// so the scanner knows nothing of our code formats (SPEC §3); Images delivers them as the same
// events. A camera's decoder (CameraDecoder) has a time budget per frame under
// barcode.DefaultCadence (one frame in four up to DefaultFrameBudget, 40 ms, the others 6 ms):
// a frame it runs out on reads nothing (barcode.ErrBudget, an ErrNotFound), silently, and the
// next frame starts afresh; photos are decoded without one. ReadPhoto and LoadFrame bound a photo before its pixels are decoded (32 MB, 48
// megapixels, regular files only). PhotoDir is a camera's drop directory: each photo a
// camera service puts there is read once, removed and decoded as a scan.
package scanner
