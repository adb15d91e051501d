// Package barcode renders and reads the terminal's barcodes as images: Code 128, Interleaved
// 2 of 5 and QR (DataMatrix is supported for comparison and interoperability), on top of
// github.com/makiuchi-d/gozxing.
//
// Decode finds a code anywhere in a photo-like frame (scaled, rotated, blurred, noisy,
// unevenly lit, among clutter; a large phone photo on a reduced pyramid level): its own
// locator measures the gradient structure of the frame cell by cell, picks regions that look
// like bars (one dominant gradient direction) or like a 2D matrix (two perpendicular
// directions), resamples each region upright (linear codes along the bars' normal and, seen
// at a slant, along the symbol's axis) and reads it: bars by thresholds, by edges and by the
// edges' positions (similar-edge decoding), QR codes also through a sampler of its own with
// Reed–Solomon erasures, DataMatrix through a detector and sampler of its own (dm_*.go: ink
// groups, sub-pixel side fits, orientation and size from the L and timing patterns) that
// hands gozxing's decoder only the module matrix; gozxing's readers check every read. The
// fallback is exactly what gozxing alone does on the whole frame (TRY_HARDER, bars also
// turned by 90°), but for a linear code's row, which must be confirmed by a row beside it
// (a single row can misread and pass), so the decoder reads the frames gozxing alone reads.
// The work per frame is bounded (noise regions and
// pure-noise frames skipped, a pixel budget for the 2D readers). DecodeAll returns every
// symbol of an image. See docs/codes.md for the measured read rates.
//
// The package yields text and an AIM symbology identifier only: it knows nothing of pack,
// ticket or validation codes (SPEC §3), so that the scanner driver can use it.
package barcode
