package config

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// Parse reads a configuration file's text: the defaults, then what the file sets. It
// reports every problem at once (the first 100, then a count of the others), each with
// its line, as *Errors: TOML syntax (the first error only: what follows cannot be read),
// unknown keys (with the nearest known one), values of the wrong type, and everything
// Validate checks. A file must also name the trusted operator keys. On problems it
// returns no configuration.
func Parse(data []byte) (*Config, error) {
	if len(data) > MaxFileSize {
		return nil, &Errors{{Msg: fmt.Sprintf("%d bytes: a configuration holds at most %d", len(data), MaxFileSize)}}
	}
	var tree map[string]any
	if err := toml.Unmarshal(data, &tree); err != nil {
		return nil, syntaxError(err)
	}
	d := &decoder{c: Default(), lines: indexLines(data), typed: map[string]bool{}}
	d.walk(tree)
	if d.lines.has("scanner", "input") && !d.lines.has("scanner", "port") {
		d.c.Scanner.Port = "" // a keyboard-wedge scanner replaces the default serial one
	}
	for _, x := range d.c.check() {
		if !d.typed[x.key] && !d.typed[x.alt] { // not a value the file did not manage to set
			d.addIssue(x)
		}
	}
	if len(d.c.Keys.Operator) == 0 && !d.typed["keys.operator"] {
		d.add("keys.operator", "required: the operator's public key files (or directories of *.pub files) that sign the ledgers")
	}
	if len(d.errs) > 0 {
		slices.SortStableFunc(d.errs, func(a, b Problem) int {
			if a.Line == 0 || b.Line == 0 { // lineless problems last
				return boolCmp(a.Line == 0, b.Line == 0)
			}
			return a.Line - b.Line
		})
		if n := len(d.errs) - maxProblems; n > 0 {
			d.errs = append(d.errs[:maxProblems:maxProblems], Problem{Msg: fmt.Sprintf("and %d more problems", n)})
		}
		return nil, &d.errs
	}
	return &d.c, nil
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// syntaxError turns go-toml's error into one problem with its line.
func syntaxError(err error) error {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, _ := de.Position()
		p := Problem{Line: line, Key: dotted(de.Key()), Msg: "TOML syntax: " + strings.TrimPrefix(de.Error(), "toml: ")}
		return &Errors{p}
	}
	return &Errors{{Msg: "TOML: " + err.Error()}}
}

type decoder struct {
	c     Config
	lines lines
	typed map[string]bool // keys with a type problem: their value stayed the default
	errs  Errors
}

func (d *decoder) add(key, msg string, path ...string) {
	if path == nil {
		path = strings.Split(key, ".")
	}
	d.errs = append(d.errs, Problem{Line: d.lines.line(path...), Key: key, Msg: msg})
}

// addIssue places a Validate problem on its key's line, or its alternative's, or its
// table's.
func (d *decoder) addIssue(x issue) {
	path := x.path
	if path == nil {
		path = strings.Split(x.key, ".")
	}
	line := 0
	if d.lines.has(path...) {
		line = d.lines.line(path...)
	} else if x.alt != "" && d.lines.has(strings.Split(x.alt, ".")...) {
		line = d.lines.line(strings.Split(x.alt, ".")...)
	} else {
		line = d.lines.line(path[:len(path)-1]...)
	}
	d.errs = append(d.errs, Problem{Line: line, Key: x.key, Msg: x.msg})
}

// walk decodes the known keys and reports the others, in file order.
func (d *decoder) walk(tree map[string]any) {
	for _, sec := range d.inOrder(tree) {
		v := tree[sec]
		if !isSection(sec) {
			d.unknownTop(sec)
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			d.add(sec, fmt.Sprintf("want a table [%s], not %s", sec, typeName(v)), sec)
			continue
		}
		for _, name := range d.inOrder(m, sec) {
			if sec == "board" && name == "pins" {
				d.pins(m[name])
				continue
			}
			f, ok := lookupField(sec, name)
			if !ok {
				d.unknownKey(sec, name)
				continue
			}
			if msg := f.decode(&d.c, m[name]); msg != "" {
				key := sec + "." + name
				d.typed[key] = true
				d.add(key, msg)
			}
		}
	}
}

// pins decodes [board.pins]; part names are checked by Validate.
func (d *decoder) pins(v any) {
	m, ok := v.(map[string]any)
	if !ok {
		d.add("board.pins", fmt.Sprintf("want a table [board.pins] of part = pin name, not %s", typeName(v)))
		return
	}
	for _, name := range d.inOrder(m, "board", "pins") {
		key := "board.pins." + dotted([]string{name})
		if _, known := lookupPart(name); !known {
			d.add(key, unknownPartMsg(name), "board", "pins", name)
			continue
		}
		pin, ok := m[name].(string)
		if !ok {
			d.typed[key] = true
			d.add(key, wrongType(`a pin name such as "GPIO25"`, m[name]), "board", "pins", name)
			continue
		}
		d.c.Pins[name] = pin
	}
}

// inOrder lists m's keys by their line in the file.
func (d *decoder) inOrder(m map[string]any, table ...string) []string {
	keys := slices.Sorted(maps.Keys(m))
	line := make(map[string]int, len(keys))
	path := append(slices.Clone(table), "")
	for _, k := range keys {
		path[len(path)-1] = k
		line[k] = d.lines.line(path...)
	}
	slices.SortStableFunc(keys, func(a, b string) int { return line[a] - line[b] })
	return keys
}

func (d *decoder) unknownTop(name string) {
	key := dotted([]string{name})
	var where []string
	for _, f := range fields {
		if f.name == name {
			where = append(where, f.section+"."+f.name)
		}
	}
	switch {
	case len(where) > 0:
		d.add(key, fmt.Sprintf("unknown key at the top of the file; did you mean %s (under its table)?", strings.Join(where, " or ")), name)
	case closest(name, sections) != "":
		d.add(key, fmt.Sprintf("unknown table [%s]; did you mean [%s]?", key, closest(name, sections)), name)
	default:
		d.add(key, fmt.Sprintf("unknown table [%s] (tables: %s)", key, strings.Join(sections, ", ")), name)
	}
}

func (d *decoder) unknownKey(sec, name string) {
	key := sec + "." + dotted([]string{name})
	var same, other []string
	for _, f := range fields {
		if f.section == sec {
			same = append(same, f.name)
		} else if f.name == name {
			other = append(other, f.section+"."+f.name)
		}
	}
	if sec == "board" {
		same = append(same, "pins")
	}
	msg := fmt.Sprintf("unknown key %q in [%s]", clip(name), sec)
	switch s := closest(name, same); {
	case s != "":
		msg += fmt.Sprintf("; did you mean %s?", s)
	case len(other) > 0:
		msg += fmt.Sprintf("; did you mean %s?", strings.Join(other, " or "))
	case sec == "board" && slices.Contains(PinNames(), name):
		msg += fmt.Sprintf("; pins go under [board.pins]: %s = \"GPIO…\"", name)
	default:
		msg += " (keys: " + strings.Join(same, ", ") + ")"
	}
	d.add(key, msg, sec, name)
}

// dotted writes a key path as TOML does, quoting the parts that are not bare.
func dotted(parts []string) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		bare := p != ""
		for _, r := range p {
			if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
				bare = false
				break
			}
		}
		if bare {
			out[i] = p
		} else {
			out[i] = fmt.Sprintf("%q", clip(p))
		}
	}
	return strings.Join(out, ".")
}
