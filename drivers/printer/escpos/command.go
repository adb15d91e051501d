package escpos

import "fmt"

// Op identifies a parsed command.
type Op int

// Operations recognised by the Parser. Arg holds the main numeric parameter.
const (
	OpUnknown            Op = iota // unrecognised or malformed: Raw holds the bytes skipped
	OpText                         // printable bytes (in the selected code page): Data
	OpLF                           // print and line feed
	OpCR                           // carriage return (ignored by TM-T88 when auto line feed is off)
	OpHT                           // horizontal tab
	OpFF                           // form feed (page mode)
	OpCAN                          // cancel page data
	OpInit                         // ESC @
	OpPrintMode                    // ESC ! n: font, bold, double height/width, underline bits
	OpUnderline                    // ESC - n
	OpLineSpacingDefault           // ESC 2
	OpLineSpacing                  // ESC 3 n (dots)
	OpAlign                        // ESC a n
	OpBold                         // ESC E n
	OpDoubleStrike                 // ESC G n
	OpFont                         // ESC M n
	OpCharset                      // ESC R n (international character set)
	OpCodePage                     // ESC t n
	OpFeedLines                    // ESC d n
	OpFeedDots                     // ESC J n
	OpReverseFeed                  // ESC e n
	OpDrawer                       // ESC p m t1 t2 (Args: m, t1, t2 in 2 ms); DLE DC4 1 m t (Args: m, t in 100 ms)
	OpUpsideDown                   // ESC { n
	OpRotate                       // ESC V n
	OpCharSpacing                  // ESC SP n
	OpPosition                     // ESC $ / ESC \ / GS \ / GS $ (Args: the two bytes)
	OpPanelButtons                 // ESC c 5 n and other ESC c settings
	OpBitImage                     // ESC * m nL nH d (column format): Args[0] = m, Width, Height, Data
	OpSize                         // GS ! n (bits 4-7 width-1, 0-3 height-1)
	OpReverse                      // GS B n
	OpHRIPosition                  // GS H n
	OpHRIFont                      // GS f n
	OpBarcodeHeight                // GS h n
	OpBarcodeWidth                 // GS w n
	OpBarcode                      // GS k m …: Arg = m (function B numbering: 65+), Data
	OpLeftMargin                   // GS L nL nH (dots)
	OpPrintWidth                   // GS W nL nH (dots)
	OpCut                          // GS V m [n]; ESC i / ESC m: Arg 0 full, 1 partial; Args[0] = feed n
	OpRaster                       // GS v 0 m …: Arg = m, Width (dots), Height, Data (row-major, MSB left)
	OpQR                           // GS ( k cn=49: Arg = fn, Data (store) or Args
	OpGraphics                     // GS ( L / GS 8 L: Arg = fn, Args = parameters, Data
	OpFunction                     // other GS ( X / ESC ( X functions with a length: Raw
	OpASB                          // GS a n (automatic status back)
	OpTransmitStatus               // GS r n
	OpPrinterID                    // GS I n
	OpStatusRequest                // DLE EOT n
	OpRecover                      // DLE ENQ n
	OpClearBuffers                 // DLE DC4 8 1 3 20 1 6 2 8
	OpRealTime                     // other DLE DC4 functions
	OpPageMode                     // ESC L / ESC S / ESC T / ESC W and other accepted settings: Raw
	OpKanji                        // FS & / FS . / FS C / FS ! / FS -
	OpNVImage                      // FS p n m
	OpBeep                         // ESC B n t / ESC ( A
	OpSetting                      // accepted, layout-neutral settings (GS b, GS P, ESC U, ESC = …)
	OpProcessID                    // GS ( H fn=48: answer 37h 22h d1…d4 00h once everything before has printed; Data = d1…d4
	OpLineSpacing60                // ESC A n: line spacing n/60 inch (python-escpos line_spacing divisor 60)
	OpLineSpacing360               // ESC + n: line spacing n/360 inch
)

var opNames = [...]string{"unknown", "text", "LF", "CR", "HT", "FF", "CAN", "init", "print-mode",
	"underline", "line-spacing-default", "line-spacing", "align", "bold", "double-strike", "font",
	"charset", "code-page", "feed-lines", "feed-dots", "reverse-feed", "drawer", "upside-down",
	"rotate", "char-spacing", "position", "panel-buttons", "bit-image", "size", "reverse",
	"hri-position", "hri-font", "barcode-height", "barcode-width", "barcode", "left-margin",
	"print-width", "cut", "raster", "qr", "graphics", "function", "asb", "transmit-status",
	"printer-id", "status-request", "recover", "clear-buffers", "real-time", "page-mode", "kanji",
	"nv-image", "beep", "setting", "process-id", "line-spacing-60", "line-spacing-360"}

func (o Op) String() string {
	if int(o) >= 0 && int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", int(o))
}

// Command is one parsed command.
type Command struct {
	Op     Op
	Arg    int
	Args   []byte
	Data   []byte
	Width  int // image width in dots
	Height int // image height in dots
	Raw    []byte
	Reason string // why an OpUnknown was not understood
}

func (c Command) String() string {
	if c.Op == OpUnknown {
		return fmt.Sprintf("unknown % X (%s)", c.Raw, c.Reason)
	}
	return fmt.Sprintf("%s % X", c.Op, c.Raw)
}

// RealTime reports whether the printer executes c as soon as it arrives, even offline.
func (c Command) RealTime() bool {
	switch c.Op {
	case OpStatusRequest, OpRecover, OpClearBuffers, OpRealTime:
		return true
	case OpDrawer:
		return len(c.Raw) > 0 && c.Raw[0] == DLE
	}
	return false
}
