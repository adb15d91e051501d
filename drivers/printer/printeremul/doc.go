// Package printeremul is an emulated Epson TM-T88-class receipt printer.
//
// Printer interprets an ESC/POS byte stream into paper: text lines with their styles (bold,
// underline, reverse, double width and height, fonts A and B, alignment, code pages PC437, PC850,
// PC858 and WPC1252), linear barcodes and QR codes with their payloads, raster and column bit
// images (GS v 0, ESC *, GS ( L), feeds, cuts and drawer pulses. It answers real-time status
// requests (DLE EOT), GS r, GS I, DLE DC4 8 and GS ( H, unless Config.NoProcessID makes it a
// printer of the generation without GS ( H (the command is skipped, never answered). Faults are
// injected through its methods (paper out now or after N lines, cover open now or after N
// lines, near end, offline). A QR code sent as a GS v 0 raster image is read back (gozxing) so
// its payload shows in the text like a GS ( k one. Commands that are not real-time wait
// in its buffer while a fault stops printing, as on the real printer, and print when it clears
// unless the host clears the buffers. Every unknown or unsupported sequence is recorded in
// Unknown (and logged), never skipped silently. Each receipt (the paper between two cuts, or
// torn off with TearOff on a printer without cutter; blank paper fed, or sequences that print
// nothing sent, after the last cut, which several encoders do, is not one)
// renders to text and to PNG (inconsolata 8×16 bitmap font scaled to the 12×24 font A cell,
// barcodes drawn with gozxing's writers) so a person can look at it.
//
// Emulator puts a Printer on a pseudo-terminal (see serialemul), so the real driver in package
// printer talks to it over tarm/serial exactly as to the hardware; it can be unplugged and
// plugged back.
package printeremul
