package config

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/locale"
	"github.com/packterm/pos/drivers/scanner"
)

// Limits of the identity fields. A terminal id fits a 16-column display line; a retailer
// name fits a 42-column receipt line.
const (
	maxTerminalID   = 16
	maxRetailerName = 42
	maxPath         = 4096
)

// emptySHA256 is the SHA-256 of no bytes.
const emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// bauds are the rates drivers/serialport opens (those in tarm/serial's Linux table).
var bauds = []int{50, 75, 110, 134, 150, 200, 300, 600, 1200, 1800, 2400, 4800, 9600, 19200, 38400,
	57600, 115200, 230400, 460800, 500000, 576000, 921600, 1000000, 1152000, 1500000, 2000000,
	2500000, 3000000, 3500000, 4000000}

// issue is a problem before it has a line: key is where it is, alt a key whose line to
// use when the file does not set key.
type issue struct {
	key, alt, msg string
	path          []string // key's path, when a part of it is not a bare key
}

// Validate checks every value and the rules between them (a limit per ticket within the
// limit per day, one device for the scanner, no two parts on one pin, …). It returns
// *Errors, without lines (Parse adds them), or nil.
func (c *Config) Validate() error {
	if is := c.check(); len(is) > 0 {
		errs := make(Errors, len(is))
		for i, x := range is {
			errs[i] = Problem{Key: x.key, Msg: x.msg}
		}
		return &errs
	}
	return nil
}

// RetailerNumber is RetailerID as the number the pack status list carries (0 if invalid).
func (c *Config) RetailerNumber() uint32 {
	n, err := parseRetailer(c.RetailerID)
	if err != nil {
		return 0
	}
	return n
}

func parseRetailer(s string) (uint32, error) {
	if s == "" || !allDigits(s) {
		return 0, fmt.Errorf("retailer %q: want the retailer number in decimal digits", s)
	}
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("retailer %q: want a number from 1 to 4294967295", s)
	}
	return uint32(n), nil
}

// check lists every problem of c.
func (c *Config) check() []issue {
	var out []issue
	add := func(key, msg string) { out = append(out, issue{key: key, msg: msg}) }
	addAlt := func(key, alt, msg string) { out = append(out, issue{key: key, alt: alt, msg: msg}) }

	c.checkTerminal(add)
	c.checkLimits(add, addAlt)
	if _, err := board.Lookup(c.Board); err != nil {
		add("board.profile", fmt.Sprintf("unknown board profile %q (known: %s)", c.Board, strings.Join(board.Profiles(), ", ")))
	}
	checkPins(c, func(name, msg string) {
		out = append(out, issue{key: "board.pins." + dotted([]string{name}), path: []string{"board", "pins", name}, msg: msg})
	})
	if _, ok := parseDisplay(displayString(c.Display)); !ok {
		add("display.size", fmt.Sprintf(`unknown display size %q: want "16x2" or "20x4"`, displayString(c.Display)))
	}
	c.checkScanner(add, addAlt)
	c.checkPrinter(add)
	c.checkKeys(add)
	switch t := c.Technician.TokenSHA256; {
	case t == "":
	case len(t) != 64 || strings.Trim(t, "0123456789abcdef") != "":
		add("technician.token_sha256", "want 64 lower-case hex digits (the SHA-256 of the token, e.g. from `sha256sum`)")
	case t == emptySHA256:
		add("technician.token_sha256", "this is the SHA-256 of an empty token: it would unlock with nothing")
	}
	if c.HTTP != "" {
		if err := checkListen(c.HTTP); err != nil {
			add("http.listen", err.Error())
		} else if !loopback(c.HTTP) && c.Technician.TokenSHA256 == "" {
			add("http.listen", fmt.Sprintf("%q is reachable beyond this machine: the status page there asks for the technician token, and technician.token_sha256 is not set (set it, or listen on 127.0.0.1)", clip(c.HTTP)))
		}
	}
	if len(c.HTTPHosts) > maxHTTPHosts {
		add("http.hosts", fmt.Sprintf("%d names: at most %d", len(c.HTTPHosts), maxHTTPHosts))
	}
	for i, h := range c.HTTPHosts {
		if err := checkHTTPHost(h); err != nil {
			add("http.hosts", fmt.Sprintf("entry %d: %v", i+1, err))
		}
	}
	if c.Maintenance != "" {
		if err := checkMaintenance(c.Maintenance); err != nil {
			add("maintenance.listen", err.Error())
		}
	}
	c.checkFleet(add, addAlt)
	return out
}

func (c *Config) checkTerminal(add func(key, msg string)) {
	switch id := c.TerminalID; {
	case id == "":
		add("terminal.id", "required: the terminal's id, e.g. \"T-0001\"")
	case len(id) > maxTerminalID || strings.Trim(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "":
		add("terminal.id", fmt.Sprintf("%q: want 1 to %d letters, digits, '-' or '_'", clip(id), maxTerminalID))
	}
	if c.RetailerID == "" {
		add("terminal.retailer", "required: the retailer number the pack status lists are issued for")
	} else if _, err := parseRetailer(c.RetailerID); err != nil {
		add("terminal.retailer", err.Error())
	}
	if n := c.RetailerName; !utf8.ValidString(n) || utf8.RuneCountInString(n) > maxRetailerName || strings.IndexFunc(n, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		add("terminal.retailer_name", fmt.Sprintf("want at most %d printable characters (one receipt line)", maxRetailerName))
	}
	if _, err := locale.Get(c.Language); err != nil || c.Language == "" {
		add("terminal.language", fmt.Sprintf(`language %q: the retailer's display and receipts exist in %s only: want one of them`, clip(c.Language), languages()))
	}
	if c.DataDir == "" {
		add("terminal.data_dir", "required: the directory of the ledger, journal and spool")
	} else if err := checkPath(c.DataDir); err != nil {
		add("terminal.data_dir", err.Error())
	}
}

func (c *Config) checkLimits(add func(key, msg string), addAlt func(key, alt, msg string)) {
	l := c.Limits
	bad := false
	for _, x := range []struct {
		key string
		v   int64
	}{{"limits.pay_per_ticket", l.PerTicket}, {"limits.pay_per_day", l.PerDay}, {"limits.offline_per_ticket", l.OfflinePerTicket}, {"limits.offline_total", l.OfflineTotal}} {
		if x.v < 0 || x.v > MaxLimit {
			add(x.key, fmt.Sprintf("%s € is out of range (0 to %s €)", FormatEuros(x.v), FormatEuros(MaxLimit)))
			bad = true
		}
	}
	if bad {
		return
	}
	if l.PerTicket > l.PerDay {
		addAlt("limits.pay_per_ticket", "limits.pay_per_day", fmt.Sprintf("%s € per ticket is above the limit per day, limits.pay_per_day = %s €", FormatEuros(l.PerTicket), FormatEuros(l.PerDay)))
	}
	if l.OfflinePerTicket > l.PerTicket {
		addAlt("limits.offline_per_ticket", "limits.pay_per_ticket", fmt.Sprintf("%s € offline is above the limit per ticket, limits.pay_per_ticket = %s €", FormatEuros(l.OfflinePerTicket), FormatEuros(l.PerTicket)))
	}
	if l.OfflineTotal < l.OfflinePerTicket {
		addAlt("limits.offline_total", "limits.offline_per_ticket", fmt.Sprintf("%s € in all offline is below the offline limit per ticket, limits.offline_per_ticket = %s €", FormatEuros(l.OfflineTotal), FormatEuros(l.OfflinePerTicket)))
	}
}

func (c *Config) checkScanner(add func(key, msg string), addAlt func(key, alt, msg string)) {
	s := c.Scanner
	switch {
	case s.Port != "" && s.Input != "":
		addAlt("scanner.input", "scanner.port", "set either scanner.port (serial scanner) or scanner.input (keyboard-wedge scanner), not both")
	case s.Port == "" && s.Input == "":
		add("scanner.port", "required: the scanner's serial device (or scanner.input for a keyboard-wedge scanner)")
	}
	if s.Port != "" {
		if err := checkPath(s.Port); err != nil {
			add("scanner.port", err.Error())
		}
	}
	if s.Input != "" && (strings.Contains(s.Input, "/") || strings.IndexByte(s.Input, 0) >= 0) {
		if err := checkPath(s.Input); err != nil { // else a name in /dev/input/by-id
			add("scanner.input", err.Error())
		}
	}
	if s.Photos != "" {
		if err := checkPath(s.Photos); err != nil {
			add("scanner.photos", err.Error())
		}
	}
	if !slices.Contains(bauds, s.Baud) {
		add("scanner.baud", baudMsg(s.Baud))
	}
	if s.Suffix < scanner.CR || s.Suffix > scanner.Tab {
		add("scanner.suffix", `want "CR", "LF", "CRLF" or "TAB"`)
	}
}

func (c *Config) checkPrinter(add func(key, msg string)) {
	p := c.Printer
	if p.Port == "" {
		add("printer.port", "required: the printer's serial device")
	} else if err := checkPath(p.Port); err != nil {
		add("printer.port", err.Error())
	}
	if !slices.Contains(bauds, p.Baud) {
		add("printer.baud", baudMsg(p.Baud))
	}
	if p.Profile != PrinterDefault && p.Profile != PrinterLegacy {
		msg := fmt.Sprintf("unknown printer profile %q: want %q (TM-T88V and later) or %q (no print confirmation, before TM-T88V)", clip(p.Profile), PrinterDefault, PrinterLegacy)
		add("printer.profile", msg)
	}
	if p.Columns != 42 && p.Columns != 48 {
		add("printer.columns", fmt.Sprintf("%d columns: want 42 (512-dot print area) or 48 (576 dots)", p.Columns))
	}
	if _, ok := parseCodePage(codePageString(p.CodePage)); !ok {
		add("printer.code_page", fmt.Sprintf(`unknown code page %s: want "PC858" or "WPC1252"`, codePageString(p.CodePage)))
	}
}

func (c *Config) checkKeys(add func(key, msg string)) {
	for _, x := range []struct {
		key   string
		paths []string
	}{{"keys.operator", c.Keys.Operator}, {"keys.firmware", c.Keys.Firmware}} {
		seen := map[string]bool{}
		for i, p := range x.paths {
			if err := checkPath(p); err != nil {
				add(x.key, fmt.Sprintf("entry %d: %v", i+1, err))
			} else if seen[filepath.Clean(p)] {
				add(x.key, fmt.Sprintf("entry %d: %q is listed twice", i+1, p))
			}
			seen[filepath.Clean(p)] = true
		}
	}
}

func (c *Config) checkFleet(add func(key, msg string), addAlt func(key, alt, msg string)) {
	f := c.Fleet
	if f.URL == "" {
		for _, x := range []struct{ key, v string }{{"fleet.credentials", f.Credentials}, {"fleet.ca", f.CA}} {
			if x.v != "" {
				add(x.key, "set, but fleet.url is empty")
			}
		}
	} else if err := checkFleetURL(f.URL); err != nil {
		add("fleet.url", err.Error())
	}
	for _, x := range []struct{ key, v string }{{"fleet.credentials", f.Credentials}, {"fleet.ca", f.CA}} {
		if x.v != "" {
			if err := checkPath(x.v); err != nil {
				add(x.key, err.Error())
			}
		}
	}
}

// checkFleetURL checks a NATS server URL, or several separated by commas (the nodes of a
// cluster, as the NATS client takes them), each one in full.
func checkFleetURL(s string) error {
	parts := strings.Split(s, ",")
	if len(parts) > maxFleetURLs {
		return fmt.Errorf("%d server URLs, at most %d", len(parts), maxFleetURLs)
	}
	for _, p := range parts {
		if err := checkOneFleetURL(strings.TrimSpace(p)); err != nil {
			return err
		}
	}
	return nil
}

// maxFleetURLs bounds the URLs of fleet.url (a cluster has 3 to 7 nodes).
const maxFleetURLs = 16

func checkOneFleetURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf(`not a URL: want a NATS server URL, e.g. "tls://fleet.example.org:4222"`)
	}
	shown := clip(u.Redacted()) // never a password
	if (u.Scheme != "nats" && u.Scheme != "tls") || u.Host == "" || u.Hostname() == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return fmt.Errorf(`%q: want a NATS server URL, e.g. "tls://fleet.example.org:4222"`, shown)
	}
	if u.User != nil {
		return fmt.Errorf("%q: put credentials in fleet.credentials, not in the URL", shown)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%q: port out of range", shown)
		}
	}
	return nil
}

func checkListen(s string) error {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return fmt.Errorf(`%q: want host:port, e.g. "127.0.0.1:8080" (or "" to turn the HTTP server off)`, clip(s))
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("%q: port %q: want 1 to 65535", clip(s), clip(port))
	}
	if host != "" && host != "localhost" && net.ParseIP(host) == nil {
		return fmt.Errorf("%q: want an IP address (or localhost) to listen on", clip(s))
	}
	return nil
}

// maxHTTPHosts bounds [http] hosts.
const maxHTTPHosts = 32

// checkHTTPHost accepts a host name or IP address the page answers to, with an optional
// port: "pos-0042.local", "192.168.1.20", "localhost:9000" (an SSH tunnel's other port),
// "[fd00::20]:8080". No wildcard: each name is one a technician types.
func checkHTTPHost(s string) error {
	host := s
	if h, port, err := net.SplitHostPort(s); err == nil {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%q: port %q: want 1 to 65535", clip(s), clip(port))
		}
		host = h
	} else if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		host = s[1 : len(s)-1]
	}
	if net.ParseIP(host) != nil {
		return nil
	}
	if !isDNSName(host) {
		return fmt.Errorf(`%q: want a host name (letters, digits, dashes and dots, e.g. "pos-0042.local") or an IP address, with an optional ":PORT"`, clip(s))
	}
	return nil
}

// isDNSName reports whether s is a host name: dot-separated labels of 1 to 63 letters,
// digits and dashes, no dash at either end, 253 bytes at most.
func isDNSName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, l := range strings.Split(s, ".") {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !(c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
				return false
			}
		}
	}
	return true
}

// loopback reports whether a valid listen address is reachable from this machine only
// (localhost or a loopback IP; an empty host is every interface). The status page asks
// for the technician token everywhere else (device/web.IsLoopback, the same rule).
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkPath accepts an absolute path (the daemon's working directory is no one's choice).
func checkPath(p string) error {
	switch {
	case strings.IndexByte(p, 0) >= 0:
		return fmt.Errorf("path %q holds a NUL byte", clip(p))
	case len(p) > maxPath:
		return fmt.Errorf("path longer than %d bytes", maxPath)
	case !filepath.IsAbs(p):
		return fmt.Errorf("path %q is not absolute", clip(p))
	}
	return nil
}

func baudMsg(b int) string {
	return fmt.Sprintf("%d baud is not a standard rate (e.g. 9600, 19200, 38400, 115200)", b)
}

// clip shortens a value quoted in a message.
func clip(s string) string {
	const n = 64
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// checkMaintenance checks a maintenance link address: "tcp:HOST:PORT" (as http.listen) or
// "serial:DEV" with an absolute device path.
func checkMaintenance(s string) error {
	switch {
	case strings.HasPrefix(s, "tcp:"):
		if err := checkListen(s[4:]); err != nil {
			return fmt.Errorf(`%q: after "tcp:", %w`, clip(s), err)
		}
		return nil
	case strings.HasPrefix(s, "serial:") && strings.HasPrefix(s[7:], "/") && len(s) > 8:
		return nil
	}
	return fmt.Errorf(`%q: want "tcp:HOST:PORT" or "serial:/dev/DEVICE" (or "" to turn the maintenance link off)`, clip(s))
}

// languages lists the languages of [terminal] language, quoted: "en", "fr".
func languages() string {
	var qs []string
	for _, t := range locale.Tags() {
		qs = append(qs, strconv.Quote(t))
	}
	return strings.Join(qs, ", ")
}
