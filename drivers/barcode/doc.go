// Package barcode renders and reads the terminal's barcodes as images: Code 128, Interleaved
// 2 of 5 and QR (DataMatrix is supported for comparison and interoperability), on top of
// github.com/makiuchi-d/gozxing.
//
// Decode finds a code anywhere in a photo-like frame (scaled, rotated, blurred, noisy,
// unevenly lit, among clutter): its own locator measures the gradient structure of the frame
// cell by cell, picks regions that look like bars (one dominant gradient direction) or like a
// 2D matrix (two perpendicular directions), resamples each region upright (linear codes along
// the bars' normal and, seen at a slant, along the symbol's axis), and only then hands it to
// gozxing's readers. DataMatrix has a detector and sampler of our own (dm_*.go: ink groups,
// sub-pixel side fits, orientation and size from the L and timing patterns, rows and columns
// tracked along the timing) that hands gozxing's decoder only the module matrix; gozxing's
// own full-frame search is the fallback. The work per frame is bounded (noise regions
// skipped, a pixel budget for the 2D readers). DecodeAll returns every symbol of an image.
// See docs/codes.md for the measured read rates.
//
// The package yields text and an AIM symbology identifier only: it knows nothing of pack,
// ticket or validation codes (SPEC §3), so that the scanner driver can use it.
package barcode
