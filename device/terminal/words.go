package terminal

import "github.com/packterm/pos/device/locale"

// words is the locale of the terminal's screens and receipts (Config.Language, checked by
// New).
func (t *Terminal) words() *locale.Locale {
	l, err := locale.Get(t.cfg.Language)
	if err != nil {
		return locale.French()
	}
	return l
}
