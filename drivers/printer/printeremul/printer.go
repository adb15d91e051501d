package printeremul

import (
	"fmt"
	"image"
	"image/color"
	"log/slog"
	"strings"
	"sync"

	"golang.org/x/text/encoding/charmap"

	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/escpos"
)

// Config of an emulated printer.
type Config struct {
	// Columns of font A in the default print area: 42 (512 dots) or 48 (576 dots), or 32
	// (384 dots) for a 58 mm printer; 0 means 48.
	Columns int
	// NoProcessID emulates a printer without GS ( H (TM-T88IV and before, most TM-T20-class
	// clones): the command is skipped, as such a printer skips it, and never answered; it is
	// listed in Unknown (not on the paper) so a test can count the driver's probes.
	NoProcessID bool
	// Logger receives a line per unknown sequence; nil means slog.Default().
	Logger *slog.Logger
}

// modes are the print modes ESC @ resets.
type modes struct {
	codePage    byte
	align       int
	style       Style
	lineSpacing int
	leftMargin  int
	printWidth  int
	barHeight   int
	barModule   int
	hriPos      int
	qrModule    int
	qrECC       byte
	qrData      []byte
	graphics    *image.Gray
}

// Printer is the emulated device: feed it host bytes, it returns the bytes the printer answers.
// Tests set faults through its methods. Safe for concurrent use.
type Printer struct {
	cfg Config
	log *slog.Logger

	mu       sync.Mutex
	parser   escpos.Parser
	m        modes
	line     []Segment
	lineCol  int  // columns used on the current line
	lineImg  bool // the current line holds a bit-image stripe: its LF feeds nothing more
	stripe   bool // the last line printed is an ESC * stripe (the next one merges into it)
	cur      Receipt
	receipts []Receipt
	pending  []escpos.Command
	unknown  []escpos.Command

	paperEnd  bool
	paperLeft int // lines before paper end; < 0 means no limit
	coverLeft int // lines before the cover opens; < 0 means never
	nearEnd   bool
	coverOpen bool
	offline   bool
	lines     int // lines printed in all
	changed   chan struct{}
}

// New returns a printer with paper, cover closed, online.
func New(cfg Config) *Printer {
	if cfg.Columns == 0 {
		cfg.Columns = 48
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	p := &Printer{cfg: cfg, log: cfg.Logger, paperLeft: -1, coverLeft: -1, changed: make(chan struct{})}
	p.reset()
	return p
}

func (p *Printer) reset() {
	p.m = modes{
		codePage: escpos.CodePagePC437, lineSpacing: 30, printWidth: p.cfg.Columns * printer.DotsPerColumn,
		barHeight: 162, barModule: 3, qrModule: 3, qrECC: 'L',
		style: Style{Width: 1, Height: 1},
	}
	p.line, p.lineCol, p.lineImg = nil, 0, false
}

// notify wakes WaitReceipts callers (p.mu held).
func (p *Printer) notify() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// stopped reports whether a fault stops printing (p.mu held).
func (p *Printer) stopped() bool { return p.paperEnd || p.coverOpen || p.offline }

// Status is the printer's current state as DLE EOT would report it.
func (p *Printer) Status() escpos.Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.status()
}

func (p *Printer) status() escpos.Status {
	return escpos.Status{
		Offline:   p.stopped(),
		CoverOpen: p.coverOpen,
		PaperStop: p.paperEnd,
		PaperEnd:  p.paperEnd,
		NearEnd:   p.nearEnd || p.paperEnd,
	}
}

// Write feeds host bytes to the printer and returns its answers (status replies).
func (p *Printer) Write(b []byte) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []byte
	for _, c := range p.parser.Feed(b) {
		out = append(out, p.exec(c)...)
	}
	p.notify()
	return out
}

// Close ends the stream: an incomplete command is reported, the uncut paper becomes a receipt.
func (p *Printer) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.parser.Flush() {
		p.exec(c)
	}
	p.printLine(false)
	if !p.cur.printsNothing() { // paper fed (or junk sent) after the last cut is not a receipt
		p.receipts = append(p.receipts, p.cur)
	}
	p.cur = Receipt{}
	p.notify()
}

func (p *Printer) exec(c escpos.Command) []byte {
	if c.RealTime() {
		return p.realTime(c)
	}
	if p.stopped() || len(p.pending) > 0 {
		p.pending = append(p.pending, c)
		return nil
	}
	return p.apply(c)
}

func (p *Printer) realTime(c escpos.Command) []byte {
	switch c.Op {
	case escpos.OpStatusRequest:
		b, err := escpos.StatusReply(p.status(), byte(c.Arg))
		if err != nil {
			p.report(c, "DLE EOT with unknown n")
			return nil
		}
		return []byte{b}
	case escpos.OpClearBuffers:
		p.clearBuffers()
		return append([]byte(nil), escpos.ClearBuffersReply...)
	case escpos.OpRecover:
		if c.Arg == 2 {
			p.clearBuffers()
		}
	case escpos.OpDrawer:
		p.pulse(Pulse{Pin5: c.Arg == 1, OnMs: int(c.Args[1]) * 100})
	}
	return nil
}

// pulse records a drawer kick on the paper being printed or, right after a cut, on the
// receipt just cut (encoders commonly kick the drawer after cutting).
func (p *Printer) pulse(k Pulse) {
	if p.cur.printsNothing() && len(p.line) == 0 && len(p.receipts) > 0 && !p.receipts[len(p.receipts)-1].Interrupted {
		last := &p.receipts[len(p.receipts)-1]
		last.Drawer = append(last.Drawer, k)
		return
	}
	p.cur.Drawer = append(p.cur.Drawer, k)
}

// clearBuffers drops what waits and tears off the paper printed so far.
func (p *Printer) clearBuffers() {
	p.pending = nil
	p.line, p.lineCol = nil, 0
	if !p.cur.empty() {
		p.cur.Interrupted = true
		p.receipts = append(p.receipts, p.cur)
		p.cur = Receipt{}
	}
}

// reportOff lists c in Unknown without putting it on the paper.
func (p *Printer) reportOff(c escpos.Command, reason string) {
	c.Reason = reason
	p.unknown = append(p.unknown, c)
	p.log.Warn("printeremul: unsupported ESC/POS sequence", "bytes", fmt.Sprintf("% X", c.Raw), "reason", c.Reason)
}

func (p *Printer) report(c escpos.Command, reason string) {
	if c.Reason == "" {
		c.Reason = reason
	}
	p.unknown = append(p.unknown, c)
	p.cur.Unknown = append(p.cur.Unknown, c)
	p.log.Warn("printeremul: unknown ESC/POS sequence", "bytes", fmt.Sprintf("% X", c.Raw), "reason", c.Reason)
}

// resume runs waiting commands after a fault clears (p.mu held).
func (p *Printer) resume() []byte {
	var out []byte
	for len(p.pending) > 0 && !p.stopped() {
		c := p.pending[0]
		p.pending = p.pending[1:]
		out = append(out, p.apply(c)...)
	}
	return out
}

func (p *Printer) columns(s Style) int {
	cell := printer.DotsPerColumn
	if s.FontB {
		cell = 9
	}
	return max((p.m.printWidth-p.m.leftMargin)/(cell*s.Width), 1)
}

// feedLine counts one printed line against the paper left (p.mu held).
func (p *Printer) feedLine(l Line) {
	if p.paperEnd {
		return
	}
	l.Dots = p.m.printWidth - p.m.leftMargin
	p.cur.Lines = append(p.cur.Lines, l)
	p.stripe = false
	p.lines++
	if p.paperLeft > 0 {
		p.paperLeft--
		if p.paperLeft == 0 {
			p.paperEnd = true
		}
	}
	if p.coverLeft > 0 {
		p.coverLeft--
		if p.coverLeft == 0 {
			p.coverOpen = true
		}
	}
}

// printLine prints the line buffer; empty lines feed one line when feedEmpty.
func (p *Printer) printLine(feedEmpty bool) {
	if len(p.line) == 0 {
		if feedEmpty && !p.lineImg {
			p.feedLine(Line{Kind: TextLine, Align: p.m.align, Columns: p.columns(Style{Width: 1})})
		}
		p.lineImg = false
		return
	}
	p.feedLine(Line{Kind: TextLine, Align: p.m.align, Segments: p.line, Columns: p.columns(Style{Width: 1})})
	p.line, p.lineCol, p.lineImg = nil, 0, false
}

// addText puts code page bytes on the line, wrapping at the print area. If paper runs out on
// a wrapped line, the bytes not yet printed wait at the head of the buffer, as on the printer.
func (p *Printer) addText(raw []byte) {
	cm := p.charmap()
	for i, b := range raw {
		if p.lineCol+p.m.style.Width > p.columns(Style{Width: 1, FontB: p.m.style.FontB}) {
			p.printLine(false)
			if p.stopped() {
				rest := escpos.Command{Op: escpos.OpText, Data: append([]byte(nil), raw[i:]...), Raw: append([]byte(nil), raw[i:]...)}
				p.pending = append([]escpos.Command{rest}, p.pending...)
				return
			}
		}
		r := string(cm.DecodeByte(b))
		if n := len(p.line); n > 0 && p.line[n-1].Style == p.m.style {
			p.line[n-1].Text += r
		} else {
			p.line = append(p.line, Segment{Text: r, Style: p.m.style})
		}
		p.lineCol += p.m.style.Width
	}
}

func (p *Printer) charmap() *charmap.Charmap {
	if cm := printer.Charmap(p.m.codePage); cm != nil {
		return cm
	}
	return charmap.CodePage437
}

func (p *Printer) cut(kind string) {
	p.printLine(false)
	if p.stopped() {
		return
	}
	p.cur.Cut = kind
	p.receipts = append(p.receipts, p.cur)
	p.cur = Receipt{}
}

func b01(n int) bool { return n&1 == 1 }

// apply executes a command that is not real-time (never called while stopped).
func (p *Printer) apply(c escpos.Command) []byte {
	switch c.Op {
	case escpos.OpText:
		p.addText(c.Data)
	case escpos.OpLF:
		p.printLine(true)
	case escpos.OpCR, escpos.OpFF, escpos.OpCAN:
	case escpos.OpHT:
		n := 8 - p.lineCol%8
		p.addText([]byte(strings.Repeat(" ", n)))
	case escpos.OpInit:
		p.reset()
	case escpos.OpPrintMode:
		n := c.Arg
		p.m.style.FontB, p.m.style.Bold = b01(n), n&8 != 0
		p.m.style.Height, p.m.style.Width = 1+(n>>4&1), 1+(n>>5&1)
		p.m.style.Underline = (n >> 7 & 1)
	case escpos.OpUnderline:
		p.m.style.Underline = c.Arg & 3 % 3
		if c.Arg >= 48 {
			p.m.style.Underline = (c.Arg - 48) % 3
		}
	case escpos.OpLineSpacingDefault:
		p.m.lineSpacing = 30
	case escpos.OpLineSpacing:
		p.m.lineSpacing = c.Arg
	case escpos.OpLineSpacing60:
		p.m.lineSpacing = c.Arg * 3 // 180 dpi
	case escpos.OpLineSpacing360:
		p.m.lineSpacing = c.Arg / 2
	case escpos.OpAlign:
		if a := c.Arg % 48; a <= 2 {
			p.m.align = a
		} else {
			p.report(c, "ESC a with bad n")
		}
	case escpos.OpBold, escpos.OpDoubleStrike:
		p.m.style.Bold = b01(c.Arg)
	case escpos.OpFont:
		p.m.style.FontB = b01(c.Arg)
	case escpos.OpCodePage:
		if printer.Charmap(byte(c.Arg)) == nil {
			p.report(c, fmt.Sprintf("code page %d not emulated (PC437 used)", c.Arg))
		}
		p.m.codePage = byte(c.Arg)
	case escpos.OpCharset:
		if c.Arg != 0 {
			p.report(c, "international character set other than USA not emulated")
		}
	case escpos.OpFeedLines:
		p.printLine(true)
		for i := 1; i < c.Arg && !p.stopped(); i++ {
			p.feedLine(Line{Kind: FeedLine, Height: p.m.lineSpacing, Columns: p.columns(Style{Width: 1})})
		}
	case escpos.OpFeedDots:
		p.printLine(false)
		p.feedLine(Line{Kind: FeedLine, Height: c.Arg, Columns: p.columns(Style{Width: 1})})
	case escpos.OpDrawer:
		p.pulse(Pulse{Pin5: b01(int(c.Args[0])), OnMs: int(c.Args[1]) * 2})
	case escpos.OpSize:
		w, h := 1+(c.Arg>>4&7), 1+(c.Arg&7)
		p.m.style.Width, p.m.style.Height = w, h
	case escpos.OpReverse:
		p.m.style.Reverse = b01(c.Arg)
	case escpos.OpHRIPosition:
		p.m.hriPos = c.Arg % 48 & 3
	case escpos.OpBarcodeHeight:
		p.m.barHeight = max(c.Arg, 1)
	case escpos.OpBarcodeWidth:
		if c.Arg >= 1 && c.Arg <= 6 {
			p.m.barModule = c.Arg
		} else {
			p.report(c, "GS w outside 1..6")
		}
	case escpos.OpBarcode:
		p.barcode(c)
	case escpos.OpLeftMargin:
		p.m.leftMargin = int(c.Args[0]) | int(c.Args[1])<<8
	case escpos.OpPrintWidth:
		w := int(c.Args[0]) | int(c.Args[1])<<8
		p.m.printWidth = min(max(w, printer.DotsPerColumn), p.cfg.Columns*printer.DotsPerColumn)
	case escpos.OpCut:
		if len(c.Args) == 1 && c.Args[0] > 0 {
			for i := 0; i < int(c.Args[0])*p.m.lineSpacing/30 && i < 8; i++ {
				p.feedLine(Line{Kind: FeedLine, Height: 30, Columns: p.columns(Style{Width: 1})})
			}
		}
		kind := "full"
		if c.Arg == 1 {
			kind = "partial"
		}
		p.cut(kind)
	case escpos.OpRaster:
		p.printLine(false)
		img := scale(rasterImage(c.Data, c.Width/8, c.Height), 1+c.Arg&1, 1+c.Arg>>1&1)
		l := Line{Kind: ImageLine, Image: img, Height: img.Rect.Dy(), Align: p.m.align, Columns: p.columns(Style{Width: 1})}
		l.Symbology, l.Data = readQR(img) // QR codes sent as raster images by drivers for printers without GS ( k
		p.feedLine(l)
	case escpos.OpBitImage:
		p.bitImage(c)
	case escpos.OpQR:
		return p.qr(c)
	case escpos.OpGraphics:
		p.graphics(c)
	case escpos.OpNVImage:
		p.printLine(false)
		p.feedLine(Line{Kind: NVImageLine, Data: fmt.Sprintf("%d mode %d", c.Arg, c.Args[0]), Columns: p.columns(Style{Width: 1})})
	case escpos.OpTransmitStatus:
		switch c.Arg {
		case 1, 49:
			b := byte(0)
			if p.nearEnd || p.paperEnd {
				b |= 0x03
			}
			if p.paperEnd {
				b |= 0x0C
			}
			return []byte{b}
		case 2, 50:
			return []byte{0}
		}
		p.report(c, "GS r with unknown n")
	case escpos.OpPrinterID:
		switch c.Arg {
		case 1, 49:
			return []byte{0x20}
		case 2, 50:
			return []byte{0x02}
		case 3, 51:
			return []byte{0x40}
		case 66:
			return append([]byte("_EPSON"), 0)
		case 67:
			return append([]byte("_TM-T88 (emulated)"), 0)
		}
		p.report(c, "GS I with unknown n")
	case escpos.OpCharSpacing, escpos.OpHRIFont, escpos.OpPanelButtons, escpos.OpKanji,
		escpos.OpSetting, escpos.OpBeep, escpos.OpReverseFeed:
		// Accepted; no effect on the emulated paper.
	case escpos.OpPageMode:
		p.report(c, "page mode not emulated")
	case escpos.OpFunction:
		p.report(c, "function not emulated")
	case escpos.OpProcessID:
		if p.cfg.NoProcessID {
			p.reportOff(c, "GS ( H not supported by this model (skipped)")
			return nil
		}
		return append(append(append([]byte(nil), escpos.ProcessIDReply...), c.Data...), 0)
	case escpos.OpASB:
		if c.Arg != 0 {
			p.report(c, "automatic status back not emulated")
		}
	case escpos.OpUpsideDown, escpos.OpRotate:
		if c.Arg&1 != 0 {
			p.report(c, "upside-down and rotated printing not emulated")
		}
	case escpos.OpPosition:
		p.report(c, "absolute and relative print positions not emulated")
	case escpos.OpUnknown:
		p.report(c, "")
	default:
		p.report(c, "command not emulated")
	}
	return nil
}

func (p *Printer) image(img *image.Gray) {
	p.feedLine(Line{Kind: ImageLine, Image: img, Height: img.Rect.Dy(), Align: p.m.align, Columns: p.columns(Style{Width: 1})})
}

// bitImage prints an ESC * stripe; stripes printed back to back merge into one image.
func (p *Printer) bitImage(c escpos.Command) {
	m := c.Args[0]
	per := c.Height / 8
	dx := 1
	if m == 0 || m == 32 {
		dx = 2 // single density: each column is two dots wide
	}
	img := image.NewGray(image.Rect(0, 0, c.Width*dx, c.Height))
	fill(img)
	for x := 0; x < c.Width; x++ {
		for k := 0; k < per; k++ {
			b := c.Data[x*per+k]
			for bit := 0; bit < 8; bit++ {
				if b&(0x80>>bit) != 0 {
					for d := 0; d < dx; d++ {
						img.SetGray(x*dx+d, k*8+bit, color.Gray{})
					}
				}
			}
		}
	}
	if n := len(p.cur.Lines); n > 0 && p.stripe && len(p.line) == 0 {
		last := &p.cur.Lines[n-1]
		if last.Kind == ImageLine && last.Image.Rect.Dx() == img.Rect.Dx() {
			last.Image = stack(last.Image, img)
			last.Height = last.Image.Rect.Dy()
			p.lineImg = true
			return
		}
	}
	p.printLine(false)
	p.image(img)
	p.lineImg, p.stripe = true, true
}

func (p *Printer) graphics(c escpos.Command) {
	switch c.Arg {
	case 112, 113:
		p.m.graphics = rasterImage(c.Data, (c.Width+7)/8, c.Height)
	case 50, 2:
		if p.m.graphics == nil {
			p.report(c, "GS ( L print with nothing stored")
			return
		}
		p.printLine(false)
		p.image(p.m.graphics)
		p.m.graphics = nil
	case 48, 49, 65, 66, 67: // capability query, density, NV management: no paper
	default:
		p.report(c, "GS ( L function not emulated")
	}
}

func (p *Printer) qr(c escpos.Command) []byte {
	switch c.Arg {
	case 65: // model
	case 67:
		if len(c.Args) == 3 {
			if n := int(c.Args[2]); n >= 1 && n <= 16 {
				p.m.qrModule = n
			} else {
				p.report(c, "QR module size outside 1..16")
			}
		}
	case 69:
		if len(c.Args) == 3 && c.Args[2] >= 48 && c.Args[2] <= 51 {
			p.m.qrECC = "LMQH"[c.Args[2]-48]
		}
	case 80:
		p.m.qrData = append([]byte(nil), c.Data...)
	case 81:
		p.printLine(false)
		if len(p.m.qrData) == 0 {
			p.report(c, "QR print with no data stored")
			return nil
		}
		p.feedLine(Line{Kind: QRLine, Symbology: "QR", Data: string(p.m.qrData), Module: p.m.qrModule,
			ECC: p.m.qrECC, Align: p.m.align, Columns: p.columns(Style{Width: 1})})
	case 82: // transmit size information
		return nil
	default:
		p.report(c, "GS ( k QR function not emulated")
	}
	return nil
}

var symbologies = map[int]string{65: "UPC-A", 66: "UPC-E", 67: "EAN13", 68: "EAN8", 69: "Code39",
	70: "ITF", 71: "Codabar", 72: "Code93", 73: "Code128"}

func (p *Printer) barcode(c escpos.Command) {
	name, ok := symbologies[c.Arg]
	if !ok {
		p.report(c, "barcode system not emulated")
		return
	}
	data := string(c.Data)
	if c.Arg == escpos.BarcodeCode128 {
		d, err := decodeCode128(c.Data)
		if err != nil {
			p.report(c, err.Error())
			return
		}
		data = d
	}
	if c.Arg == escpos.BarcodeITF && (len(data)%2 != 0 || strings.Trim(data, "0123456789") != "") {
		p.report(c, "ITF data is not an even count of digits")
		return
	}
	p.printLine(false)
	p.feedLine(Line{Kind: BarcodeLine, Symbology: name, Data: data, HRI: p.m.hriPos, Module: p.m.barModule,
		Height: p.m.barHeight, Align: p.m.align, Columns: p.columns(Style{Width: 1})})
}

// decodeCode128 turns GS k 73 data ({A, {B, {C code sets, {S shift, {1 FNC1…) into text.
func decodeCode128(d []byte) (string, error) {
	if len(d) < 2 || d[0] != '{' || d[1] < 'A' || d[1] > 'C' {
		return "", fmt.Errorf("Code 128 data does not start with a code set")
	}
	var sb strings.Builder
	set := d[1]
	for i := 2; i < len(d); i++ {
		b := d[i]
		if b == '{' {
			if i+1 >= len(d) {
				return "", fmt.Errorf("Code 128 data ends after '{'")
			}
			i++
			switch d[i] {
			case 'A', 'B', 'C':
				set = d[i]
			case '{':
				sb.WriteByte('{')
			case 'S', '1', '2', '3', '4':
				// shift and function characters: no text
			default:
				return "", fmt.Errorf("Code 128 data: unknown {%c", d[i])
			}
			continue
		}
		if set == 'C' {
			if b > 99 {
				return "", fmt.Errorf("Code 128 set C value %d", b)
			}
			fmt.Fprintf(&sb, "%02d", b)
			continue
		}
		sb.WriteByte(b)
	}
	return sb.String(), nil
}

// TearOff is the retailer tearing the paper off a printer without cutter: what was printed
// since the last cut or tear becomes a receipt (Cut "torn"), unless it printed nothing.
func (p *Printer) TearOff() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.printLine(false)
	if !p.cur.printsNothing() {
		p.cur.Cut = "torn"
		p.receipts = append(p.receipts, p.cur)
	}
	p.cur = Receipt{}
	p.notify()
}

// Receipts returns the receipts printed so far (cut or torn off), oldest first.
func (p *Printer) Receipts() []Receipt {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Receipt(nil), p.receipts...)
}

// Current is the paper printed since the last cut.
func (p *Printer) Current() Receipt {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cur
}

// Unknown returns every unknown or unsupported sequence seen.
func (p *Printer) Unknown() []escpos.Command {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]escpos.Command(nil), p.unknown...)
}

// Changed returns a channel closed at the next change of paper or state.
func (p *Printer) Changed() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.changed
}

// PaperOut makes the paper run out now.
func (p *Printer) PaperOut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paperEnd = true
	p.notify()
}

// PaperOutAfter makes the paper run out after n more printed lines.
func (p *Printer) PaperOutAfter(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paperLeft = n
	if n == 0 {
		p.paperEnd = true
	}
}

// CoverOpenAfter makes the cover open after n more printed lines (as a retailer opening it
// in the middle of a receipt).
func (p *Printer) CoverOpenAfter(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.coverLeft = n
	if n == 0 {
		p.coverOpen = true
	}
}

// SetNearEnd sets the paper near-end sensor.
func (p *Printer) SetNearEnd(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nearEnd = on
}

// LoadPaper puts a new roll in: paper end clears and waiting commands print.
func (p *Printer) LoadPaper() []byte {
	return p.clearFault(func() { p.paperEnd, p.paperLeft, p.nearEnd = false, -1, false })
}

// SetCoverOpen opens or closes the cover.
func (p *Printer) SetCoverOpen(open bool) []byte {
	return p.clearFault(func() { p.coverOpen, p.coverLeft = open, -1 })
}

// SetOffline puts the printer offline or back online.
func (p *Printer) SetOffline(off bool) []byte {
	return p.clearFault(func() { p.offline = off })
}

// clearFault changes a sensor under the lock, then prints what waited for the fault to
// clear (if it has) and wakes the waiters; it returns the replies printing produced.
func (p *Printer) clearFault(change func()) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	change()
	out := p.resume()
	p.notify()
	return out
}

// LinesPrinted counts every line printed since New.
func (p *Printer) LinesPrinted() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lines
}
