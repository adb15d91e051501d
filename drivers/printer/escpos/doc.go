// Package escpos encodes and parses the ESC/POS command language of Epson TM-T88-class receipt
// printers (Epson "ESC/POS Application Programming Guide" and the TM-T88V/VI technical
// reference): a Builder that writes commands, a streaming Parser that turns any byte stream
// (ours, or what python-escpos and similar encoders produce) into Commands, and the real-time
// status replies of DLE EOT n.
//
// The parser knows the length of every command it recognises, so an unknown command is reported
// as OpUnknown with its bytes and never silently swallowed; bad input never panics.
package escpos
