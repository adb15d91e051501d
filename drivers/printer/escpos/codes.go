package escpos

// Control bytes.
const (
	HT  = 0x09
	LF  = 0x0A
	FF  = 0x0C
	CR  = 0x0D
	DLE = 0x10
	EOT = 0x04
	ENQ = 0x05
	DC4 = 0x14
	CAN = 0x18
	ESC = 0x1B
	FS  = 0x1C
	GS  = 0x1D
)

// Code pages selectable with ESC t n (TM-T88 character code tables).
const (
	CodePagePC437   = 0
	CodePagePC850   = 2
	CodePageWPC1252 = 16
	CodePagePC858   = 19
)

// Barcode systems of GS k function B (m = 65..79).
const (
	BarcodeUPCA    = 65
	BarcodeEAN13   = 67
	BarcodeCode39  = 69
	BarcodeITF     = 70
	BarcodeCodabar = 71
	BarcodeCode93  = 72
	BarcodeCode128 = 73
)

// Status requests of DLE EOT n.
const (
	StatusPrinter = 1 // printer status
	StatusOffline = 2 // offline cause
	StatusError   = 3 // error cause
	StatusPaper   = 4 // roll paper sensor
)

// ClearBuffers is DLE DC4 fn=8 (TM-T88IV and later): DLE DC4 8 1 3 20 1 6 2 8. It clears
// the receive and print buffers while the printer is offline or in error; the printer
// answers ClearBuffersReply. The byte sequences here are constant strings: no caller can
// change them ([]byte(ClearBuffers) is a fresh copy).
const ClearBuffers = "\x10\x14\x08\x01\x03\x14\x01\x06\x02\x08"

// ClearBuffersReply is the printer's answer to ClearBuffers: 37h 25h 00h.
const ClearBuffersReply = "\x37\x25\x00"

// ProcessIDReply is the header of the answer to GS ( H fn=48 (then d1…d4 and NUL).
const ProcessIDReply = "\x37\x22"
