// Package printer drives an Epson TM-T88-class ESC/POS receipt printer on a serial line.
//
// A Receipt (text lines with styles, Code 128 and ITF barcodes, QR codes, feeds, drawer kick)
// is rendered to ESC/POS bytes for a 42- or 48-column paper width. Text is printed in code page
// PC858 (ESC t 19): it is the DOS Latin-1 table with the euro sign at D5h, so € and every French
// accented letter (é è ê ë à â ç î ï ô ù û ü ÿ and capitals, « ») print, and it is supported by
// every TM-T88 since the TM-T88II as well as most clones; WPC1252 (ESC t 16) is available by
// configuration for printers that lack PC858. Runes neither table has (œ, typographic quotes)
// are replaced by their ASCII spelling, or "?" as a last resort.
//
// Real-time status (DLE EOT 1, 2, 3 and 4) is read before and after every receipt. A printer
// answers DLE EOT the moment the request arrives, possibly before the receipt ahead of it has
// printed, so each receipt is also followed by a process ID request (GS ( H fn 48, TM-T88V and
// later; Config.NoPrintConfirm turns it off for older models) that the printer answers only
// once everything before it has printed: a receipt counts as printed when that answer comes and
// the status shows no fault; if it does not come within PrintTimeout the status is read again. A receipt
// that cannot print is kept in a spool directory (written atomically, with fsync) and printed by
// Flush or Run once the fault clears, in order; the caller learns of the fault at once through a
// *FaultError that matches ErrPaperEnd, ErrCoverOpen, ErrOffline, ErrPrinterError or
// ErrNoResponse with errors.Is. When paper runs out in the middle of a receipt the driver clears
// the printer's buffers (DLE DC4 8) so that the rest of the interrupted copy is not printed on
// the new roll, and prints the whole receipt again once paper is back: the retailer gets one
// complete receipt, never a receipt split over two rolls and never a complete receipt twice.
package printer
