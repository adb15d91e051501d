// Package printer drives an ESC/POS receipt printer (Epson TM-T88 class and clones) on a serial line.
//
// A Profile (ProfileByName: default, tm-t88v, tm-t88iv, tm-t20-clone, 58mm-generic) says what
// the model can do, as python-escpos' capability profiles do: columns of font A (48 or 42 on
// 80 mm, 32 on 58 mm), code page, cutter (partial, full, none), QR codes drawn by the printer
// (GS ( k) or sent as a raster image (GS v 0, drawn with gozxing's QR writer), and GS ( H.
// A Receipt (text lines with styles, Code 128 and ITF barcodes, QR codes, feeds, drawer kick)
// is rendered to ESC/POS bytes for the profile's paper width. Text is printed in code page
// PC858 (ESC t 19): it is the DOS Latin-1 table with the euro sign at D5h, so € and every French
// accented letter (é è ê ë à â ç î ï ô ù û ü ÿ and capitals, « ») print, and it is supported by
// every TM-T88 since the TM-T88II as well as most clones; WPC1252 (ESC t 16) is available by
// configuration for printers that lack PC858. Runes neither table has (œ, typographic quotes)
// are replaced by their ASCII spelling, or "?" as a last resort.
//
// Real-time status (DLE EOT 1, 2, 3 and 4) is read before and after every receipt. A printer
// answers DLE EOT the moment the request arrives, possibly before the receipt ahead of it has
// printed, so the driver also needs to learn when the receipt has printed (Mode). In
// ModeProcessID each receipt is followed by a process ID request (GS ( H fn 48, TM-T88V and
// later) that the printer answers only once everything before it has printed: a receipt counts
// as printed when that answer comes and the status shows no fault; if it does not come within
// PrintTimeout the status is read again. Older printers (TM-T88IV and before, most TM-T20-class
// clones) skip GS ( H: in ModeStatusPolling the driver polls DLE EOT every StatusPoll for
// PollSettle after the receipt has left the line, and a fault seen meanwhile interrupts it. The
// profile fixes the mode, or (default profile) the driver probes once, with one GS ( H and a
// short timeout, when the printer is first ready; the answer is kept for the port until a write
// fails (the printer plugged back may be another). The mode is logged and Mode reports it. A receipt
// that cannot print is kept in a spool directory (written atomically, with fsync) and printed by
// Flush or Run once the fault clears, in order; the caller learns of the fault at once through a
// *FaultError that matches ErrPaperEnd, ErrCoverOpen, ErrOffline, ErrPrinterError or
// ErrNoResponse with errors.Is. When paper runs out in the middle of a receipt the driver clears
// the printer's buffers (DLE DC4 8) so that the rest of the interrupted copy is not printed on
// the new roll, and prints the whole receipt again once paper is back: the retailer gets one
// complete receipt, never a receipt split over two rolls and never a complete receipt twice.
package printer
