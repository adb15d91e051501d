// Package codemap decides, in one place, which symbology carries which of our codes and how
// the AIM symbology identifier (ISO/IEC 15424) a scanner or the image decoder reports is
// used: the pack code is Code 128 ("]C"), the ticket code Interleaved 2 of 5 ("]I", 14
// digits), the validation code QR ("]Q") or DataMatrix ("]d"). Drivers deliver text and a
// symbology without knowing our formats, validate/codes parses text without knowing
// symbologies; this package joins the two for the terminal and posctl.
package codemap
