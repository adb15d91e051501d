package config

import (
	"fmt"
	"strings"
	"testing"

	"github.com/packterm/pos/drivers/scanner"
)

// want is one expected problem: its line, its key and part of its message.
type want struct {
	line int
	key  string
	msg  string
}

// checkProblems asserts that err lists exactly the wanted problems, in order.
func checkProblems(t *testing.T, err error, wants ...want) {
	t.Helper()
	got := problems(t, err)
	if len(got) != len(wants) {
		t.Fatalf("%d problems, want %d:\n%v", len(got), len(wants), err)
	}
	for i, w := range wants {
		p := got[i]
		if p.Line != w.line || p.Key != w.key || !strings.Contains(p.Msg, w.msg) {
			t.Errorf("problem %d = %q (line %d, key %q)\nwant line %d, key %q, message with %q", i, p.String(), p.Line, p.Key, w.line, w.key, w.msg)
		}
	}
}

func TestProblemKinds(t *testing.T) {
	// Each document is minimal (lines 1-5) and then its mistake from line 6 on.
	cases := []struct {
		name string
		doc  string
		want []want
		full bool // doc is the whole file, not what follows minimal
	}{
		{"unknown key, near", "[keys]\noperator = [\"/k.pub\"]\n[terminal]\nid = \"T-1\"\nretailer = 1\nretailr_name = \"x\"", []want{{6, "terminal.retailr_name", "did you mean retailer_name?"}}, true},
		{"unknown key, far", "[scanner]\nspeed = 9600", []want{{7, "scanner.speed", "(keys: port, baud, suffix, aim, input, photos, keymap)"}}, false},
		{"key of another table", "[display]\nbaud = 9600", []want{{7, "display.baud", "did you mean scanner.baud or printer.baud?"}}, false},
		{"key above every table", "", nil, false}, // placeholder replaced below
		{"unknown table, near", "[dispaly]\nsize = \"16x2\"", []want{{6, "dispaly", "did you mean [display]?"}}, false},
		{"unknown table, far", "[network]", []want{{6, "network", "unknown table [network] (tables:"}}, false},
		{"unknown sub-table", "[terminal.extra]\nx = 1", []want{{6, "terminal.extra", `unknown key "extra" in [terminal]`}}, false},
		{"quoted key", "[scanner]\n\"a.b\" = 1", []want{{7, `scanner."a.b"`, `unknown key "a.b"`}}, false},
		{"table as a value", "display = \"16x2\"", nil, false},
		{"string for integer", "[printer]\nbaud = \"9600\"", []want{{7, "printer.baud", "want an integer, not a string"}}, false},
		{"integer for string", "[display]\nsize = 20", []want{{7, "display.size", `want "16x2" or "20x4", not an integer`}}, false},
		{"string for boolean", "[scanner]\naim = \"yes\"", []want{{7, "scanner.aim", "want true or false, not a string"}}, false},
		{"array entry", "[keys]\noperator = [\"/k.pub\"]\nfirmware = [\"/a\", 2]\n[terminal]\nid = \"T-1\"\nretailer = 1\n", []want{{3, "keys.firmware", "entry 2: want a path string, not an integer"}}, true},
		{"date", "[keys]\noperator = [\"/k.pub\"]\n[terminal]\nid = \"T-1\"\nretailer = 1\nlanguage = 2024-01-01", []want{{6, "terminal.language", "not a date or time"}}, true},
		{"float money", "[limits]\npay_per_day = 5000.0", []want{{7, "limits.pay_per_day", "TOML float"}}, false},
		{"dot money", "[limits]\npay_per_day = \"5.000\"", []want{{7, "limits.pay_per_day", "a dot is ambiguous"}}, false},
		{"bool money", "[limits]\npay_per_day = true", []want{{7, "limits.pay_per_day", "not a boolean"}}, false},
		{"negative money", "[limits]\noffline_per_ticket = -1", []want{{7, "limits.offline_per_ticket", "out of range"}}, false},
		{"huge money", "[limits]\npay_per_day = 2000000", []want{{7, "limits.pay_per_day", "out of range (0 to 1000000,00 €)"}}, false},
		{"per ticket above per day", "[limits]\npay_per_ticket = \"600,00\"\npay_per_day = 500",
			[]want{{7, "limits.pay_per_ticket", "600,00 € per ticket is above the limit per day, limits.pay_per_day = 500,00 €"}}, false},
		{"per day below default per ticket", "[limits]\npay_per_day = 100",
			[]want{{7, "limits.pay_per_ticket", "above the limit per day"}}, false},
		{"offline above per ticket", "[limits]\noffline_per_ticket = 200", []want{{7, "limits.offline_per_ticket", "above the limit per ticket"}}, false},
		{"unknown board profile", "[board]\nprofile = \"beaglebone\"", []want{{7, "board.profile", `unknown board profile "beaglebone" (known: qemu-virt, rpi)`}}, false},
		{"unknown part", "[board.pins]\nbuzer = \"GPIO26\"", []want{{7, "board.pins.buzer", `did you mean "buzzer"?`}}, false},
		{"part in [board]", "[board]\nbuzzer = \"GPIO26\"", []want{{7, "board.buzzer", "pins go under [board.pins]"}}, false},
		{"bad pin name", "[board.pins]\nbuzzer = \"pin26\"", []want{{7, "board.pins.buzzer", `want a BCM name such as "GPIO25"`}}, false},
		{"pin out of range", "[board.pins]\nbuzzer = \"GPIO28\"", []want{{7, "board.pins.buzzer", "GPIO0 to GPIO27"}}, false},
		{"header pin not GPIO", "[board.pins]\nbuzzer = \"P1_2\"", []want{{7, "board.pins.buzzer", "not a GPIO of the 40-pin header"}}, false},
		{"two parts on a pin", "[board.pins]\nbuzzer = \"P1_29\"", []want{{7, "board.pins.buzzer", "P1_29 (GPIO5) is also the pin of led_green"}}, false},
		{"R/W on the RS pin", "[board.pins]\nlcd_rw = \"P1_22\"", []want{{7, "board.pins.lcd_rw", "P1_22 (GPIO25) is also the pin of lcd_rs"}}, false},
		{"pin not a string", "[board.pins]\nbuzzer = 26", []want{{7, "board.pins.buzzer", "not an integer"}}, false},
		{"pins not a table", "[board]\npins = \"GPIO26\"", []want{{7, "board.pins", "want a table [board.pins]"}}, false},
		{"unknown display size", "[display]\nsize = \"40x2\"", []want{{7, "display.size", `unknown display size "40x2"`}}, false},
		{"unknown suffix", "[scanner]\nsuffix = \"ESC\"", []want{{7, "scanner.suffix", `unknown suffix "ESC"`}}, false},
		{"unknown keymap", "[scanner]\nkeymap = \"dvorak\"", []want{{7, "scanner.keymap", `unknown keymap "dvorak": want "us" (QWERTY) or "fr" (AZERTY)`}}, false},
		{"odd baud", "[scanner]\nbaud = 14400", []want{{7, "scanner.baud", "not a standard rate"}}, false},
		{"huge baud", "[scanner]\nbaud = 99999999999", []want{{7, "scanner.baud", "out of range"}}, false},
		{"keyboard scanner, relative path", "[scanner]\nport = \"\"\ninput = \"input/event0\"", []want{{8, "scanner.input", "not absolute"}}, false},
		{"two scanners", "[scanner]\nport = \"/dev/ttyS0\"\ninput = \"/dev/input/event0\"", []want{{8, "scanner.input", "not both"}}, false},
		{"no scanner", "[scanner]\nport = \"\"", []want{{7, "scanner.port", "required"}}, false},
		{"relative path", "[printer]\nport = \"ttyUSB0\"", []want{{7, "printer.port", `path "ttyUSB0" is not absolute`}}, false},
		{"printer profile", "[printer]\nprofile = \"tm-t20\"", []want{{7, "printer.profile", `unknown printer profile "tm-t20"`}}, false},
		{"columns", "[printer]\ncolumns = 40", []want{{7, "printer.columns", "want 42"}}, false},
		{"code page", "[printer]\ncode_page = \"UTF8\"", []want{{7, "printer.code_page", `unknown code page "UTF8"`}}, false},
		{"language", "[keys]\noperator = [\"/k.pub\"]\n[terminal]\nid = \"T-1\"\nretailer = 1\nlanguage = \"de\"", []want{{6, "terminal.language", `language "de": the retailer's display and receipts exist in "en", "fr" only`}}, true},
		{"terminal id", "[keys]\noperator = [\"/k.pub\"]\n[terminal]\nid = \"T 1\"\nretailer = 1", []want{{4, "terminal.id", "want 1 to 16 letters"}}, true},
		{"retailer zero", "[keys]\noperator = [\"/k.pub\"]\n[terminal]\nid = \"T-1\"\nretailer = 0", []want{{5, "terminal.retailer", "from 1 to 4294967295"}}, true},
		{"retailer letters", "[keys]\noperator = [\"/k.pub\"]\n[terminal]\nid = \"T-1\"\nretailer = \"R12\"", []want{{5, "terminal.retailer", "decimal digits"}}, true},
		{"retailer name", "[keys]\noperator = [\"/k.pub\"]\n[terminal]\nid = \"T-1\"\nretailer = 1\nretailer_name = \"a\\tb\"", []want{{6, "terminal.retailer_name", "printable"}}, true},
		{"token", "[technician]\ntoken_sha256 = \"secret\"", []want{{7, "technician.token_sha256", "64 lower-case hex digits"}}, false},
		{"empty token", "[technician]\ntoken_sha256 = \"E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855\"", []want{{7, "technician.token_sha256", "empty token"}}, false},
		{"key case", "[scanner]\nBaud = 9600", []want{{7, "scanner.Baud", "did you mean baud?"}}, false},
		{"cross check on a value not read", "[limits]\npay_per_ticket = 6000\npay_per_day = \"7.000\"", []want{{8, "limits.pay_per_day", "a dot is ambiguous"}}, false},
		{"listen", "[http]\nlisten = \"8080\"", []want{{7, "http.listen", "want host:port"}}, false},
		{"listen host", "[http]\nlisten = \"example.org:80\"", []want{{7, "http.listen", "IP address"}}, false},
		{"maintenance", "[maintenance]\nlisten = \"127.0.0.1:7070\"", []want{{7, "maintenance.listen", "want \"tcp:HOST:PORT\""}}, false},
		{"maintenance tcp", "[maintenance]\nlisten = \"tcp:7070\"", []want{{7, "maintenance.listen", "want host:port"}}, false},
		{"maintenance serial", "[maintenance]\nlisten = \"serial:ttyGS0\"", []want{{7, "maintenance.listen", "serial:/dev/DEVICE"}}, false},
		{"fleet url", "[fleet]\nurl = \"http://fleet\"", []want{{7, "fleet.url", "NATS server URL"}}, false},
		{"fleet url with password", "[fleet]\nurl = \"tls://u:pw@fleet:4222\"", []want{{7, "fleet.url", "xxxxx"}}, false},
		{"fleet cluster url", "[fleet]\nurl = \"tls://f1.example.org:4222, tls://f2.example.org:4222,http://f3\"", []want{{7, "fleet.url", `"http://f3": want a NATS server URL`}}, false},
		{"fleet cluster url port", "[fleet]\nurl = \"tls://f1.example.org:4222,tls://f2.example.org:99999\"", []want{{7, "fleet.url", "port out of range"}}, false},
		{"fleet files without url", "[fleet]\nca = \"/etc/ca.pem\"", []want{{7, "fleet.ca", "fleet.url is empty"}}, false},
		{"duplicate key", "[keys]\noperator = [\"/k.pub\"]\nfirmware = [\"/a\", \"/b/../a\"]\n[terminal]\nid = \"T-1\"\nretailer = 1\n", []want{{3, "keys.firmware", "entry 2: \"/b/../a\" is listed twice"}}, true},
		{"inline table", "[board]\npins = { buzzer = \"GPIO26\", tampr = \"GPIO2\" }", []want{{7, "board.pins.tampr", `did you mean "tamper"?`}}, false},
		{"array of tables", "[[scanner]]\nport = \"/dev/ttyS0\"", []want{{6, "scanner", "want a table [scanner], not an array"}}, false},
	}
	for _, tc := range cases {
		switch tc.name {
		case "key above every table":
			// A key before any table header belongs to no table.
			t.Run(tc.name, func(t *testing.T) {
				_, err := Parse([]byte("size = \"16x2\"\n" + minimal))
				checkProblems(t, err, want{1, "size", "did you mean display.size (under its table)?"})
			})
			continue
		case "table as a value":
			t.Run(tc.name, func(t *testing.T) {
				_, err := Parse([]byte("display = \"16x2\"\n" + minimal))
				checkProblems(t, err, want{1, "display", "want a table [display], not a string"})
			})
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			doc := minimal + tc.doc + "\n"
			if tc.full {
				doc = tc.doc
			}
			_, err := Parse([]byte(doc))
			checkProblems(t, err, tc.want...)
		})
	}
}

func TestRequired(t *testing.T) {
	_, err := Parse([]byte("[terminal]\nlanguage = \"fr\"\n"))
	checkProblems(t, err,
		want{1, "terminal.id", "required"},
		want{1, "terminal.retailer", "required"},
		want{0, "keys.operator", "required"},
	)
	_, err = Parse(nil)
	checkProblems(t, err,
		want{0, "terminal.id", "required"},
		want{0, "terminal.retailer", "required"},
		want{0, "keys.operator", "required"},
	)
	// A value of the wrong type is reported once, not also as missing.
	_, err = Parse([]byte(strings.Replace(minimal, `id = "T-1"`, "id = 1", 1)))
	checkProblems(t, err, want{2, "terminal.id", "want a string, not an integer"})
}

func TestSyntaxError(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		line int
	}{
		{minimal + "[limits]\npay_per_ticket = 150,00\n", 7},
		{minimal + "[terminal]\n", 6},                         // table defined twice
		{minimal + "[scanner]\nbaud = 1\nbaud = 2\n", 8},      // key defined twice
		{"[terminal\nid = \"x\"\n", 1},                        // unclosed header
		{minimal + "[printer]\nport = \"/dev/tty\x00\"\n", 7}, // control character
		{"\xff\xfe", 1},
	} {
		_, err := Parse([]byte(tc.doc))
		got := problems(t, err)
		if len(got) != 1 || got[0].Line != tc.line || !strings.HasPrefix(got[0].Msg, "TOML syntax") {
			t.Errorf("Parse(%q) = %v, want one TOML syntax problem on line %d", tc.doc, err, tc.line)
		}
	}
}

func TestManyProblemsAtOnce(t *testing.T) {
	doc := `id = "misplaced"
[terminal]
id = "T 1"
retailer = "R1"
retailer_nmae = "Tabac"
language = "de"
[limits]
pay_per_ticket = "150.00"
pay_per_day = 100
[board]
profile = "bbb"
[display]
size = "40x2"
[scanner]
baude = 9600
aim = "yes"
[printer]
columns = 40
[keys]
operator = []
[fleet]
credentials = "fleet.creds"
[colours]
`
	_, err := Parse([]byte(doc))
	checkProblems(t, err,
		want{1, "id", "did you mean terminal.id"},
		want{3, "terminal.id", "want 1 to 16 letters"},
		want{4, "terminal.retailer", "decimal digits"},
		want{5, "terminal.retailer_nmae", "did you mean retailer_name?"},
		want{6, "terminal.language", `language "de": the retailer's display and receipts exist in "en", "fr" only`},
		want{8, "limits.pay_per_ticket", "a dot is ambiguous"},
		want{11, "board.profile", `unknown board profile "bbb"`},
		want{13, "display.size", `unknown display size "40x2"`},
		want{15, "scanner.baude", "did you mean baud?"},
		want{16, "scanner.aim", "want true or false"},
		want{18, "printer.columns", "want 42"},
		want{20, "keys.operator", "required"},
		want{22, "fleet.credentials", "fleet.url is empty"},
		want{22, "fleet.credentials", "not absolute"},
		want{23, "colours", "unknown table [colours]"},
	)
	// Error lists them all, one a line, with the file's name when loaded.
	if n := strings.Count(err.Error(), "\n") + 1; n != 15 {
		t.Errorf("Error() has %d lines, want 15:\n%v", n, err)
	}
	if first := strings.SplitN(err.Error(), "\n", 2)[0]; first != "line 1: id: unknown key at the top of the file; did you mean terminal.id (under its table)?" {
		t.Errorf("first line %q", first)
	}
}

func TestValidateCrossField(t *testing.T) {
	c := Emulated()
	c.Limits.PerTicket = c.Limits.PerDay + 1
	c.Pins = map[string]string{"tamper": "GPIO20", "nope": "GPIO2"}
	c.Scanner.Input = "/dev/input/event0"
	c.Display = Display{40, 2}
	c.Scanner.Suffix = 7
	err := c.Validate()
	var keys []string
	for _, p := range problems(t, err) {
		if p.Line != 0 {
			t.Errorf("Validate gives a line: %v", p)
		}
		keys = append(keys, p.Key)
	}
	want := "limits.pay_per_ticket board.pins.nope board.pins.tamper display.size scanner.input scanner.suffix"
	if got := strings.Join(keys, " "); got != want {
		t.Errorf("Validate problems on %s\nwant %s\n%v", got, want, err)
	}
	if !strings.Contains(err.Error(), "board.pins.tamper: GPIO20 is also the pin of button_ok") {
		t.Errorf("no shared-pin problem: %v", err)
	}
}

func TestProblemString(t *testing.T) {
	for _, tc := range []struct {
		p    Problem
		want string
	}{
		{Problem{File: "/etc/posd.toml", Line: 12, Key: "limits.pay_per_ticket", Msg: "m"}, "/etc/posd.toml:12: limits.pay_per_ticket: m"},
		{Problem{File: "f", Key: "k", Msg: "m"}, "f: k: m"},
		{Problem{Line: 3, Msg: "m"}, "line 3: m"},
		{Problem{Msg: "m"}, "m"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.p, got, tc.want)
		}
	}
	e := Errors{{Line: 1, Msg: "a"}, {Line: 2, Msg: "b"}}
	if got := fmt.Sprint(error(&e)); got != "line 1: a\nline 2: b" {
		t.Errorf("Errors.Error() = %q", got)
	}
}

// A keyboard scanner is named as in /dev/input/by-id, with its layout.
func TestKeyboardScannerByName(t *testing.T) {
	c, err := Parse([]byte(minimal + "[scanner]\ninput = \"usb-Datalogic_Gryphon-event-kbd\"\nkeymap = \"AZERTY\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Scanner.Input != "usb-Datalogic_Gryphon-event-kbd" || c.Scanner.Port != "" || c.Scanner.Keymap != scanner.KeymapFR {
		t.Errorf("scanner %+v", c.Scanner)
	}
}
