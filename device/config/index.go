package config

import (
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// lines maps each key and table of a document to the line where it is defined. Keys are
// paths joined with pathSep, so that a quoted key holding a dot stays one part.
type lines struct {
	keys   map[string]int // key = value, including the keys of inline tables
	tables map[string]int // [table] headers and the implicit tables of dotted keys
}

const pathSep = "\x00"

func joinPath(parts []string) string { return strings.Join(parts, pathSep) }

// indexLines walks the document's syntax tree (go-toml's parser, which keeps the byte
// range of every key). It is called on a document that has decoded, so it parses.
func indexLines(data []byte) lines {
	l := lines{keys: map[string]int{}, tables: map[string]int{}}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			parts, line := keyOf(&p, e.Key())
			table = parts
			for i := 1; i <= len(parts); i++ {
				setFirst(l.tables, joinPath(parts[:i]), line)
			}
		case unstable.KeyValue:
			l.keyValue(&p, table, e)
		}
	}
	return l
}

// keyValue records a key = value line, and the keys of an inline table value.
func (l lines) keyValue(p *unstable.Parser, table []string, e *unstable.Node) {
	parts, line := keyOf(p, e.Key())
	full := append(append([]string(nil), table...), parts...)
	for i := len(table) + 1; i < len(full); i++ {
		setFirst(l.tables, joinPath(full[:i]), line)
	}
	setFirst(l.keys, joinPath(full), line)
	if v := e.Value(); v.Kind == unstable.InlineTable {
		setFirst(l.tables, joinPath(full), line)
		it := v.Children()
		for it.Next() {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				l.keyValue(p, full, c)
			}
		}
	}
}

func keyOf(p *unstable.Parser, it unstable.Iterator) ([]string, int) {
	var parts []string
	line := 0
	for it.Next() {
		n := it.Node()
		if line == 0 {
			line = p.Shape(n.Raw).Start.Line
		}
		parts = append(parts, string(n.Data))
	}
	return parts, line
}

func setFirst(m map[string]int, k string, line int) {
	if _, ok := m[k]; !ok {
		m[k] = line
	}
}

// line is where path is defined: its key, else its table, else 0.
func (l lines) line(path ...string) int {
	k := joinPath(path)
	if n, ok := l.keys[k]; ok {
		return n
	}
	return l.tables[k]
}

// has reports whether the document sets path.
func (l lines) has(path ...string) bool {
	_, ok := l.keys[joinPath(path)]
	return ok
}
