package codes

import "testing"

var sinkV ValidationCode

func BenchmarkParseValidation(b *testing.B) {
	text := ValidationCodeOf(exID, exSecret).String() + "\r\n"
	b.ReportAllocs()
	for b.Loop() {
		v, err := ParseValidation(text)
		if err != nil {
			b.Fatal(err)
		}
		sinkV = v
	}
}

func BenchmarkParseValidationManual(b *testing.B) {
	text := ValidationCodeOf(exID, exSecret).Manual()
	b.ReportAllocs()
	for b.Loop() {
		v, err := ParseValidation(text)
		if err != nil {
			b.Fatal(err)
		}
		sinkV = v
	}
}

func BenchmarkParseAny(b *testing.B) {
	texts := []string{
		PackCode{42, 123456}.String() + "\r\n",
		TicketCodeOf(exID).String() + "\r\n",
		ValidationCodeOf(exID, exSecret).String() + "\r\n",
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, _, err := Parse(texts[i%3]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkFormatValidation(b *testing.B) {
	v := ValidationCodeOf(exID, exSecret)
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = v.AppendText(buf[:0])
	}
}

// BenchmarkRedactText is what the web page's log ring adds to each log line it keeps: a
// typical line with a ticket, an amount and no code.
func BenchmarkRedactText(b *testing.B) {
	line := "terminal: payout recorded ticket=42/123456/3 amount=1000 seq=17 remote=127.0.0.1:53122"
	b.ReportAllocs()
	for b.Loop() {
		_ = RedactText(line)
	}
}
