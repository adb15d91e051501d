package diag

import (
	"github.com/packterm/pos/device/locale"
	"github.com/packterm/pos/drivers/printer"
)

// TestPageWords are the words of the printer's test page (posctl printer test) in the
// language of l (nil: French): the printer driver holds none.
func TestPageWords(l *locale.Locale) printer.TestPageWords {
	l = locale.Or(l)
	return printer.TestPageWords{
		Title: l.Text("testpage.title"), Printer: l.Text("testpage.printer"), Styles: l.Text("testpage.styles"),
		Bold: l.Text("testpage.bold"), Underline: l.Text("testpage.underline"), Reverse: l.Text("testpage.reverse"),
		DoubleWidth: l.Text("testpage.double_width"), DoubleHeight: l.Text("testpage.double_height"), Right: l.Text("testpage.right"),
		Accents: l.Text("testpage.accents"), Capitals: l.Text("testpage.capitals"),
		Euro: l.Text("testpage.euro"), EuroAmount: l.PlainMoney(10_00), Total: l.Text("testpage.total"),
		TotalAmount: l.PlainMoney(1_234_50), End: l.Text("testpage.end"),
	}
}
