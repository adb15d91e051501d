package config

import (
	"fmt"
	"io"
	"maps"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/packterm/pos/drivers/scanner"
)

// file is the configuration as the file spells it, for Encode.
type file struct {
	Terminal struct {
		ID           string `toml:"id"`
		Retailer     string `toml:"retailer"`
		RetailerName string `toml:"retailer_name"`
		Language     string `toml:"language"`
		DataDir      string `toml:"data_dir"`
	} `toml:"terminal"`
	Limits struct {
		PayPerTicket     string `toml:"pay_per_ticket"`
		PayPerDay        string `toml:"pay_per_day"`
		OfflinePerTicket string `toml:"offline_per_ticket"`
		OfflineTotal     string `toml:"offline_total"`
	} `toml:"limits"`
	Board struct {
		Profile string            `toml:"profile"`
		Pins    map[string]string `toml:"pins"`
	} `toml:"board"`
	Display struct {
		Size string `toml:"size"`
	} `toml:"display"`
	Scanner struct {
		Port   string `toml:"port"`
		Baud   int    `toml:"baud"`
		Suffix string `toml:"suffix"`
		AIM    bool   `toml:"aim"`
		Input  string `toml:"input"`
		Keymap string `toml:"keymap"`
		Photos string `toml:"photos"`
	} `toml:"scanner"`
	Printer struct {
		Port     string `toml:"port"`
		Baud     int    `toml:"baud"`
		Profile  string `toml:"profile"`
		Columns  int    `toml:"columns"`
		CodePage string `toml:"code_page"`
	} `toml:"printer"`
	Keys struct {
		Operator []string `toml:"operator"`
		Firmware []string `toml:"firmware"`
	} `toml:"keys"`
	Technician struct {
		TokenSHA256 string `toml:"token_sha256"`
	} `toml:"technician"`
	HTTP struct {
		Listen string   `toml:"listen"`
		Hosts  []string `toml:"hosts"`
	} `toml:"http"`
	Maintenance struct {
		Listen string `toml:"listen"`
	} `toml:"maintenance"`
	Fleet struct {
		URL         string `toml:"url"`
		Credentials string `toml:"credentials"`
		CA          string `toml:"ca"`
	} `toml:"fleet"`
}

// Encode writes c as a configuration file that Parse reads back to c: every key, defaults
// included (posd --print-config). Encode c.Redacted() for anything a person may see.
func (c *Config) Encode(w io.Writer) error {
	var f file
	t := &f.Terminal
	t.ID, t.Retailer, t.RetailerName, t.Language, t.DataDir = c.TerminalID, c.RetailerID, c.RetailerName, c.Language, c.DataDir
	f.Limits.PayPerTicket = FormatEuros(c.Limits.PerTicket)
	f.Limits.PayPerDay = FormatEuros(c.Limits.PerDay)
	f.Limits.OfflinePerTicket = FormatEuros(c.Limits.OfflinePerTicket)
	f.Limits.OfflineTotal = FormatEuros(c.Limits.OfflineTotal)
	f.Board.Profile = c.Board
	f.Board.Pins = maps.Clone(c.Pins)
	if f.Board.Pins == nil {
		f.Board.Pins = map[string]string{}
	}
	f.Display.Size = displayString(c.Display)
	s := &f.Scanner
	s.Port, s.Baud, s.AIM, s.Input = c.Scanner.Port, c.Scanner.Baud, c.Scanner.AIM, c.Scanner.Input
	s.Keymap, s.Photos = c.Scanner.Keymap.String(), c.Scanner.Photos
	if c.Scanner.Suffix >= scanner.CR && c.Scanner.Suffix <= scanner.Tab {
		s.Suffix = c.Scanner.Suffix.String()
	} else {
		s.Suffix = fmt.Sprint(int(c.Scanner.Suffix))
	}
	p := &f.Printer
	p.Port, p.Baud, p.Profile, p.Columns, p.CodePage = c.Printer.Port, c.Printer.Baud, c.Printer.Profile, c.Printer.Columns, codePageString(c.Printer.CodePage)
	f.Keys.Operator = nonNil(c.Keys.Operator)
	f.Keys.Firmware = nonNil(c.Keys.Firmware)
	f.Technician.TokenSHA256 = c.Technician.TokenSHA256
	f.HTTP.Listen = c.HTTP
	f.HTTP.Hosts = nonNil(c.HTTPHosts)
	f.Maintenance.Listen = c.Maintenance
	f.Fleet.URL, f.Fleet.Credentials, f.Fleet.CA = c.Fleet.URL, c.Fleet.Credentials, c.Fleet.CA
	enc := toml.NewEncoder(w)
	enc.SetIndentTables(false)
	if err := enc.Encode(&f); err != nil {
		return fmt.Errorf("config: encode: %w", err)
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Redacted is a copy of c safe to log or print: the technician token's hash is cut to
// its first 8 hex digits.
func (c *Config) Redacted() Config {
	r := *c
	r.Pins = maps.Clone(c.Pins)
	r.Keys.Operator = append([]string(nil), c.Keys.Operator...)
	r.Keys.Firmware = append([]string(nil), c.Keys.Firmware...)
	r.Technician.TokenSHA256 = redact(c.Technician.TokenSHA256)
	return r
}

func redact(h string) string {
	if len(h) <= 8 {
		return strings.Repeat("*", len(h))
	}
	return h[:8] + "…"
}

// String summarises c on one line for logs, without the token hash.
func (c *Config) String() string {
	tech := "off"
	if c.Technician.TokenSHA256 != "" {
		tech = "sha256:" + redact(c.Technician.TokenSHA256)
	}
	scan := c.Scanner.Port
	if c.Scanner.Input != "" {
		scan = c.Scanner.Input
	}
	fleet := c.Fleet.URL
	if fleet == "" {
		fleet = "off"
	}
	return fmt.Sprintf("terminal=%s retailer=%s lang=%s data=%s limits=%s/%s/%s/%s€ board=%s pins=%d display=%s scanner=%s printer=%s operator_keys=%d firmware_keys=%d technician=%s http=%q fleet=%s",
		c.TerminalID, c.RetailerID, c.Language, c.DataDir,
		FormatEuros(c.Limits.PerTicket), FormatEuros(c.Limits.PerDay), FormatEuros(c.Limits.OfflinePerTicket), FormatEuros(c.Limits.OfflineTotal),
		c.Board, len(c.Pins), displayString(c.Display), scan, c.Printer.Port,
		len(c.Keys.Operator), len(c.Keys.Firmware), tech, c.HTTP, fleet)
}
