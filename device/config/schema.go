package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/scanner"
)

// field is one key of the file: its section, its name, and how its TOML value goes into a
// Config. decode returns a problem message, or "" when the value has the right type; the
// value's range is Validate's business.
type field struct {
	section, name string
	decode        func(c *Config, v any) string
}

// sections in file order; "board.pins" is a table of part names (see PinNames).
var sections = []string{"terminal", "limits", "board", "display", "scanner", "printer", "keys", "technician", "http", "maintenance", "fleet"}

// fields are every key but those of [board.pins], in file order.
var fields = []field{
	{"terminal", "id", str(func(c *Config) *string { return &c.TerminalID })},
	{"terminal", "retailer", decodeRetailer},
	{"terminal", "retailer_name", str(func(c *Config) *string { return &c.RetailerName })},
	{"terminal", "language", str(func(c *Config) *string { return &c.Language })},
	{"terminal", "data_dir", str(func(c *Config) *string { return &c.DataDir })},

	{"limits", "pay_per_ticket", money(func(c *Config) *int64 { return &c.Limits.PerTicket })},
	{"limits", "pay_per_day", money(func(c *Config) *int64 { return &c.Limits.PerDay })},
	{"limits", "offline_per_ticket", money(func(c *Config) *int64 { return &c.Limits.OfflinePerTicket })},
	{"limits", "offline_total", money(func(c *Config) *int64 { return &c.Limits.OfflineTotal })},

	{"board", "profile", str(func(c *Config) *string { return &c.Board })},

	{"display", "size", decodeDisplay},

	{"scanner", "port", str(func(c *Config) *string { return &c.Scanner.Port })},
	{"scanner", "baud", integer(func(c *Config) *int { return &c.Scanner.Baud })},
	{"scanner", "suffix", decodeSuffix},
	{"scanner", "aim", boolean(func(c *Config) *bool { return &c.Scanner.AIM })},
	{"scanner", "input", str(func(c *Config) *string { return &c.Scanner.Input })},
	{"scanner", "photos", str(func(c *Config) *string { return &c.Scanner.Photos })},
	{"scanner", "keymap", decodeKeymap},

	{"printer", "port", str(func(c *Config) *string { return &c.Printer.Port })},
	{"printer", "baud", integer(func(c *Config) *int { return &c.Printer.Baud })},
	{"printer", "profile", str(func(c *Config) *string { return &c.Printer.Profile })},
	{"printer", "columns", integer(func(c *Config) *int { return &c.Printer.Columns })},
	{"printer", "code_page", decodeCodePage},

	{"keys", "operator", paths(func(c *Config) *[]string { return &c.Keys.Operator })},
	{"keys", "firmware", paths(func(c *Config) *[]string { return &c.Keys.Firmware })},

	{"technician", "token_sha256", decodeToken},

	{"http", "listen", str(func(c *Config) *string { return &c.HTTP })},
	{"http", "hosts", stringList(`an array of host names, e.g. ["pos-0042.local"]`, func(c *Config) *[]string { return &c.HTTPHosts })},

	{"maintenance", "listen", str(func(c *Config) *string { return &c.Maintenance })},

	{"fleet", "url", str(func(c *Config) *string { return &c.Fleet.URL })},
	{"fleet", "credentials", str(func(c *Config) *string { return &c.Fleet.Credentials })},
	{"fleet", "ca", str(func(c *Config) *string { return &c.Fleet.CA })},
}

func lookupField(section, name string) (field, bool) {
	for _, f := range fields {
		if f.section == section && f.name == name {
			return f, true
		}
	}
	return field{}, false
}

func isSection(s string) bool {
	for _, x := range sections {
		if x == s {
			return true
		}
	}
	return false
}

// typeName says what a decoded TOML value is, for messages.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date-time"
	}
	return "a date or time"
}

func wrongType(want string, v any) string {
	return fmt.Sprintf("want %s, not %s", want, typeName(v))
}

func str(at func(*Config) *string) func(*Config, any) string {
	return func(c *Config, v any) string {
		s, ok := v.(string)
		if !ok {
			return wrongType("a string", v)
		}
		*at(c) = s
		return ""
	}
}

func integer(at func(*Config) *int) func(*Config, any) string {
	return func(c *Config, v any) string {
		n, ok := v.(int64)
		if !ok {
			return wrongType("an integer", v)
		}
		if n < -1<<31 || n > 1<<31-1 {
			return fmt.Sprintf("%d is out of range", n)
		}
		*at(c) = int(n)
		return ""
	}
}

func boolean(at func(*Config) *bool) func(*Config, any) string {
	return func(c *Config, v any) string {
		b, ok := v.(bool)
		if !ok {
			return wrongType("true or false", v)
		}
		*at(c) = b
		return ""
	}
}

func paths(at func(*Config) *[]string) func(*Config, any) string {
	return func(c *Config, v any) string {
		a, ok := v.([]any)
		if !ok {
			return wrongType(`an array of paths, e.g. ["/etc/posd/keys/operator.pub"]`, v)
		}
		var out []string // nil when empty, as in Default
		for i, e := range a {
			s, ok := e.(string)
			if !ok {
				return fmt.Sprintf("entry %d: %s", i+1, wrongType("a path string", e))
			}
			out = append(out, s)
		}
		*at(c) = out
		return ""
	}
}

func stringList(want string, at func(*Config) *[]string) func(*Config, any) string {
	return func(c *Config, v any) string {
		a, ok := v.([]any)
		if !ok {
			return wrongType(want, v)
		}
		var out []string // nil when empty, as in Default
		for i, e := range a {
			s, ok := e.(string)
			if !ok {
				return fmt.Sprintf("entry %d: %s", i+1, wrongType("a string", e))
			}
			out = append(out, s)
		}
		*at(c) = out
		return ""
	}
}

func money(at func(*Config) *int64) func(*Config, any) string {
	return func(c *Config, v any) string {
		var cents int64
		switch x := v.(type) {
		case int64:
			if x < -maxEuros || x > maxEuros {
				return fmt.Sprintf("%d € is out of range", x)
			}
			cents = x * 100
		case string:
			n, err := ParseEuros(x)
			if err != nil {
				return err.Error()
			}
			cents = n
		case float64:
			return fmt.Sprintf(`%v is a TOML float, which cannot hold cents exactly: write whole euros (150) or a string with a decimal comma ("150,50")`, x)
		default:
			return wrongType(`euros, e.g. 150 or "150,50"`, v)
		}
		*at(c) = cents
		return ""
	}
}

// decodeRetailer takes the retailer number as an integer or a string of digits.
func decodeRetailer(c *Config, v any) string {
	switch x := v.(type) {
	case int64:
		c.RetailerID = strconv.FormatInt(x, 10)
	case string:
		c.RetailerID = x
	default:
		return wrongType("the retailer number (an integer)", v)
	}
	return ""
}

func decodeDisplay(c *Config, v any) string {
	s, ok := v.(string)
	if !ok {
		return wrongType(`"16x2" or "20x4"`, v)
	}
	d, ok := parseDisplay(s)
	if !ok {
		return fmt.Sprintf(`unknown display size %q: want "16x2" or "20x4"`, s)
	}
	c.Display = d
	return ""
}

func decodeSuffix(c *Config, v any) string {
	s, ok := v.(string)
	if !ok {
		return wrongType(`"CR", "LF", "CRLF" or "TAB"`, v)
	}
	sfx, err := scanner.ParseSuffix(s)
	if err != nil {
		return fmt.Sprintf(`unknown suffix %q: want "CR" (or "ENTER"), "LF", "CRLF" or "TAB"`, s)
	}
	c.Scanner.Suffix = sfx
	return ""
}

func decodeKeymap(c *Config, v any) string {
	s, ok := v.(string)
	if !ok {
		return wrongType(`"us" or "fr"`, v)
	}
	km, err := scanner.ParseKeymap(s)
	if err != nil {
		return fmt.Sprintf(`unknown keymap %q: want "us" (QWERTY) or "fr" (AZERTY)`, s)
	}
	c.Scanner.Keymap = km
	return ""
}

func decodeCodePage(c *Config, v any) string {
	s, ok := v.(string)
	if !ok {
		return wrongType(`"PC858" or "WPC1252"`, v)
	}
	cp, ok := parseCodePage(s)
	if !ok {
		return fmt.Sprintf(`unknown code page %q: want "PC858" or "WPC1252"`, s)
	}
	c.Printer.CodePage = cp
	return ""
}

func decodeToken(c *Config, v any) string {
	s, ok := v.(string)
	if !ok {
		return wrongType("the hex SHA-256 of the token", v)
	}
	c.Technician.TokenSHA256 = strings.ToLower(s)
	return ""
}

func parseDisplay(s string) (Display, bool) {
	switch strings.ToLower(s) {
	case "16x2":
		return Display{Cols: 16, Rows: 2}, true
	case "20x4":
		return Display{Cols: 20, Rows: 4}, true
	}
	return Display{}, false
}

func displayString(d Display) string { return fmt.Sprintf("%dx%d", d.Cols, d.Rows) }

func parseCodePage(s string) (printer.CodePage, bool) {
	switch strings.ToUpper(s) {
	case "PC858":
		return printer.PC858, true
	case "WPC1252":
		return printer.WPC1252, true
	}
	return 0, false
}

func codePageString(cp printer.CodePage) string {
	switch cp {
	case printer.PC858:
		return "PC858"
	case printer.WPC1252:
		return "WPC1252"
	}
	return strconv.Itoa(int(cp))
}
