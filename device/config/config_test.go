package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/scanner"
)

// minimal is the least a file must say.
const minimal = `[terminal]
id = "T-1"
retailer = 1
[keys]
operator = ["/etc/posd/keys/operator.pub"]
`

func mustParse(t *testing.T, doc string) *Config {
	t.Helper()
	c, err := Parse([]byte(doc))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return c
}

func problems(t *testing.T, err error) Errors {
	t.Helper()
	var errs *Errors
	if !errors.As(err, &errs) {
		t.Fatalf("error %v (%T) is not *Errors", err, err)
	}
	return *errs
}

func TestDefault(t *testing.T) {
	d := Default()
	want := Config{
		Language: "fr", DataDir: "/var/lib/posd",
		Limits: Limits{PerTicket: 15000, PerDay: 500000, OfflinePerTicket: 10000, OfflineTotal: 100000},
		Board:  "rpi", Pins: map[string]string{}, Display: Display{20, 4},
		Scanner: Scanner{Port: "/dev/ttyACM0", Baud: 9600, Suffix: scanner.CR},
		Printer: Printer{Port: "/dev/ttyUSB0", Baud: 9600, Profile: "default", Columns: 48, CodePage: printer.PC858},
		HTTP:    "127.0.0.1:8080",
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("Default() = %+v\nwant %+v", d, want)
	}
	// Default lacks the identity only.
	errs := problems(t, d.Validate())
	var keys []string
	for _, p := range errs {
		keys = append(keys, p.Key)
	}
	if got := strings.Join(keys, " "); got != "terminal.id terminal.retailer" {
		t.Errorf("Default().Validate() problems on %q, want terminal.id terminal.retailer:\n%v", got, errs)
	}
	e := Emulated()
	if err := e.Validate(); err != nil {
		t.Errorf("Emulated().Validate(): %v", err)
	}
	if e.TerminalID != "EMU-0001" || e.RetailerNumber() != 1 {
		t.Errorf("Emulated() = %+v", e)
	}
	// The defaults of a minimal file are Default's.
	c := mustParse(t, minimal)
	d.TerminalID, d.RetailerID, d.Keys.Operator = "T-1", "1", []string{"/etc/posd/keys/operator.pub"}
	if !reflect.DeepEqual(*c, d) {
		t.Errorf("Parse(minimal) = %+v\nwant %+v", *c, d)
	}
}

func TestExample(t *testing.T) {
	c, err := Load("testdata/example.toml")
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		TerminalID: "T-0042", RetailerID: "123456", RetailerName: "Tabac de la Gare", Language: "fr", DataDir: "/var/lib/posd",
		Limits:     Limits{PerTicket: 15000, PerDay: 500000, OfflinePerTicket: 10000, OfflineTotal: 100000},
		Board:      "rpi",
		Pins:       map[string]string{"buzzer": "GPIO26"},
		Display:    Display{16, 2},
		Scanner:    Scanner{Port: "/dev/serial/by-id/usb-Honeywell_Scanner-if00", Baud: 9600, Suffix: scanner.CR, AIM: true},
		Printer:    Printer{Port: "/dev/ttyUSB0", Baud: 38400, Profile: "default", Columns: 42, CodePage: printer.PC858},
		Keys:       Keys{Operator: []string{"/etc/posd/keys/operator.pub"}, Firmware: []string{"/etc/posd/keys/firmware.pub"}},
		Technician: Technician{TokenSHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
		HTTP:       "127.0.0.1:8080", Maintenance: "serial:/dev/ttyGS0",
		Fleet: Fleet{URL: "tls://fleet.example.org:4222", Credentials: "/etc/posd/fleet.creds", CA: "/etc/posd/fleet-ca.pem"},
	}
	if !reflect.DeepEqual(*c, want) {
		t.Errorf("example = %+v\nwant %+v", *c, want)
	}
	if c.RetailerNumber() != 123456 {
		t.Errorf("RetailerNumber = %d", c.RetailerNumber())
	}
	if m := c.PinMap(); m != (board.PinMap{Buzzer: "GPIO26"}) {
		t.Errorf("PinMap = %+v", m)
	}
	if c.Printer.NoPrintConfirm() {
		t.Error("default printer profile: NoPrintConfirm")
	}
}

func TestEveryType(t *testing.T) {
	c := mustParse(t, minimal+`[scanner]
input = "/dev/input/by-id/usb-scanner-event-kbd"
suffix = "crlf"
[printer]
profile = "legacy"
code_page = "WPC1252"
[display]
size = "16X2"
[limits]
pay_per_ticket = 150
pay_per_day = "10 000 €"
offline_per_ticket = "99,9"
[http]
listen = ""
[technician]
token_sha256 = "9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08"
[board.pins]
drawer = "P1_37"
`)
	if c.Scanner.Port != "" || c.Scanner.Suffix != scanner.CRLF {
		t.Errorf("scanner = %+v: an evdev input drops the default port", c.Scanner)
	}
	if !c.Printer.NoPrintConfirm() || c.Printer.CodePage != printer.WPC1252 {
		t.Errorf("printer = %+v", c.Printer)
	}
	if c.Limits != (Limits{15000, 1000000, 9990, 100000}) {
		t.Errorf("limits = %+v", c.Limits)
	}
	if c.Display != (Display{16, 2}) || c.HTTP != "" || c.Technician.TokenSHA256 != strings.ToLower("9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08") {
		t.Errorf("display %v http %q token %q", c.Display, c.HTTP, c.Technician.TokenSHA256)
	}
}

// TestLCDRWPin: the panel's R/W line has no pin unless [board.pins] lcd_rw gives one.
func TestLCDRWPin(t *testing.T) {
	if m := mustParse(t, minimal).PinMap(); m.LCDRW != "" || board.RaspberryPi().Pins.LCDRW != "" {
		t.Errorf("R/W wired by default: %q, profile %q", m.LCDRW, board.RaspberryPi().Pins.LCDRW)
	}
	if m := mustParse(t, minimal+"[board.pins]\nlcd_rw = \"GPIO26\"\n").PinMap(); m.LCDRW != "GPIO26" {
		t.Errorf("lcd_rw = GPIO26 gives %q", m.LCDRW)
	}
}

func TestParseEuros(t *testing.T) {
	ok := map[string]int64{
		"0": 0, "150": 15000, "150,5": 15050, "150,50": 15050, "150,05": 15005, "5 000,00": 500000,
		"5\u00a0000": 500000, "5\u202f000,10": 500010, "1 000 000": 100000000, " 12,34 € ": 1234, "150€": 15000,
	}
	for s, want := range ok {
		if got, err := ParseEuros(s); err != nil || got != want {
			t.Errorf("ParseEuros(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	bad := map[string]string{
		"": "empty", "€": "empty", "150.00": "dot", "1.500": "dot", "-5": "negative", "150,": "cents",
		"150,123": "cents", "150,a": "cents", "15 00": "digits", "1500 000": "digits", "abc": "digits",
		"1,2,3": "cents", "12345678901": "range", "99999999999,00": "range", "0x10": "digits", "+5": "digits",
	}
	for s, why := range bad {
		if got, err := ParseEuros(s); err == nil {
			t.Errorf("ParseEuros(%q) = %d, want an error (%s)", s, got, why)
		} else if !strings.Contains(err.Error(), why) && why != "digits" && why != "cents" && why != "range" {
			t.Errorf("ParseEuros(%q): %v, want it to mention %q", s, err, why)
		}
	}
	if got := FormatEuros(-150); got != "-1,50" {
		t.Errorf("FormatEuros(-150) = %q", got)
	}
	if got := FormatEuros(-1 << 63); got != "-92233720368547758,08" {
		t.Errorf("FormatEuros(MinInt64) = %q", got)
	}
	for _, c := range []int64{0, 1, 99, 100, 15050, 500000, MaxLimit} {
		if got, err := ParseEuros(FormatEuros(c)); err != nil || got != c {
			t.Errorf("ParseEuros(FormatEuros(%d)) = %d, %v", c, got, err)
		}
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	for _, name := range []string{"testdata/example.toml", ""} {
		var c *Config
		if name == "" {
			c = mustParse(t, minimal)
		} else {
			var err error
			if c, err = Load(name); err != nil {
				t.Fatal(err)
			}
		}
		var b strings.Builder
		if err := c.Encode(&b); err != nil {
			t.Fatal(err)
		}
		back := mustParse(t, b.String())
		if !reflect.DeepEqual(back, c) {
			t.Errorf("%s: Parse(Encode) = %#v\nwant %#v\nencoded:\n%s", name, back, c, b.String())
		}
	}
}

func TestRedacted(t *testing.T) {
	c, err := Load("testdata/example.toml")
	if err != nil {
		t.Fatal(err)
	}
	hash := c.Technician.TokenSHA256
	r := c.Redacted()
	var b strings.Builder
	if err := r.Encode(&b); err != nil {
		t.Fatal(err)
	}
	for what, s := range map[string]string{"String": c.String(), "Redacted().Encode": b.String(), "Redacted().String": r.String()} {
		if strings.Contains(s, hash[:9]) {
			t.Errorf("%s shows more than 8 digits of the token hash:\n%s", what, s)
		}
		if !strings.Contains(s, hash[:8]) {
			t.Errorf("%s lacks the hash's first 8 digits:\n%s", what, s)
		}
	}
	if c.Technician.TokenSHA256 != hash {
		t.Error("Redacted changed its receiver")
	}
	r.Pins["tamper"] = "GPIO2"
	if _, ok := c.Pins["tamper"]; ok {
		t.Error("Redacted shares the pin map")
	}
	if err := r.Validate(); err == nil {
		t.Error("a redacted configuration validates: it could be used by mistake")
	}
	if !strings.Contains(c.String(), "terminal=T-0042") {
		t.Errorf("String() = %s", c.String())
	}
}

// A cluster's nodes are given as several comma-separated URLs, each checked.
func TestFleetClusterURL(t *testing.T) {
	c := Emulated()
	c.Keys.Operator = []string{"/etc/posd/operator.pub"}
	c.Fleet.URL = "tls://f1.example.org:4222,tls://f2.example.org:4222, tls://10.0.0.3:4222"
	if err := c.Validate(); err != nil {
		t.Fatalf("three nodes: %v", err)
	}
	for _, bad := range []string{"tls://f1.example.org:4222,", "tls://f1:4222,tls://u:pw@f2:4222", "tls://f1/x", "tls://f1?x=1"} {
		c.Fleet.URL = bad
		if err := c.Validate(); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestHTTPHosts(t *testing.T) {
	c := mustParse(t, minimal+"[http]\nhosts = [\"pos-0042.local\", \"192.168.1.20\", \"localhost:9000\", \"[fd00::20]:8080\"]\n")
	if want := []string{"pos-0042.local", "192.168.1.20", "localhost:9000", "[fd00::20]:8080"}; !reflect.DeepEqual(c.HTTPHosts, want) {
		t.Errorf("hosts %q", c.HTTPHosts)
	}
	if c := mustParse(t, minimal); c.HTTPHosts != nil {
		t.Errorf("default hosts %q", c.HTTPHosts)
	}
	for _, bad := range []string{`["*"]`, `["*.local"]`, `[""]`, `["pos:0"]`, `["-pos.local"]`, `["pos..local"]`, `["http://pos.local"]`, `"pos.local"`, `[1]`} {
		_, err := Parse([]byte(minimal + "[http]\nhosts = " + bad + "\n"))
		if err == nil || !strings.Contains(err.Error(), "http.hosts") {
			t.Errorf("hosts = %s: %v", bad, err)
		}
	}
}

// TestLanguage: [terminal] language picks the locale of the screens and receipts: "fr" by
// default, "en" accepted, any other refused (not accepted and ignored).
func TestLanguage(t *testing.T) {
	base := "[keys]\noperator = [\"/k.pub\"]\n[terminal]\nid = \"T-1\"\nretailer = 1\n"
	c, err := Parse([]byte(base))
	if err != nil || c.Language != "fr" {
		t.Fatalf("no language: %q %v", c.Language, err)
	}
	c, err = Parse([]byte(base + "language = \"en\"\n"))
	if err != nil || c.Language != "en" {
		t.Fatalf("en: %q %v", c.Language, err)
	}
	for _, bad := range []string{"de", "EN", ""} {
		if _, err := Parse([]byte(base + "language = \"" + bad + "\"\n")); err == nil || !strings.Contains(err.Error(), "terminal.language") {
			t.Errorf("language %q: %v", bad, err)
		}
	}
}
