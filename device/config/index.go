package config

import (
	"bytes"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// lines maps each key and table of a document to the line where it is defined. Keys are
// paths joined with pathSep, so that a quoted key holding a dot stays one part.
type lines struct {
	keys   map[string]int // key = value, including the keys of inline tables
	tables map[string]int // [table] headers and the implicit tables of dotted keys
	nl     []int          // offsets of the document's newlines
}

const pathSep = "\x00"

// maxDepth is the deepest path the configuration has ([board.pins] part); deeper keys are
// reported where they leave the known ones, so their own lines are not indexed (which also
// keeps a key of a million dotted parts from costing a million joins).
const maxDepth = 3

func joinPath(parts []string) string { return strings.Join(parts, pathSep) }

// indexLines walks the document's syntax tree (go-toml's parser, which keeps the byte
// range of every key). It is called on a document that has decoded, so it parses.
func indexLines(data []byte) lines {
	l := lines{keys: map[string]int{}, tables: map[string]int{}}
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			break
		}
		l.nl = append(l.nl, i+j)
		i += j + 1
	}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			parts, line := l.keyOf(e.Key())
			table = parts
			for i := 1; i <= min(len(parts), maxDepth); i++ {
				setFirst(l.tables, joinPath(parts[:i]), line)
			}
		case unstable.KeyValue:
			l.keyValue(table, e)
		}
	}
	return l
}

// keyValue records a key = value line, and the keys of an inline table value.
func (l lines) keyValue(table []string, e *unstable.Node) {
	if len(table) >= maxDepth {
		return
	}
	parts, line := l.keyOf(e.Key())
	full := append(append([]string(nil), table...), parts...)
	for i := len(table) + 1; i < min(len(full), maxDepth+1); i++ {
		setFirst(l.tables, joinPath(full[:i]), line)
	}
	if len(full) > maxDepth {
		return
	}
	setFirst(l.keys, joinPath(full), line)
	if v := e.Value(); v.Kind == unstable.InlineTable {
		setFirst(l.tables, joinPath(full), line)
		it := v.Children()
		for it.Next() {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				l.keyValue(full, c)
			}
		}
	}
}

// keyOf is a key's parts (up to one more than maxDepth) and the line where it starts.
func (l lines) keyOf(it unstable.Iterator) ([]string, int) {
	var parts []string
	line := 0
	for it.Next() && len(parts) <= maxDepth {
		n := it.Node()
		if line == 0 {
			line = l.lineAt(int(n.Raw.Offset))
		}
		parts = append(parts, string(n.Data))
	}
	return parts, line
}

// lineAt is the 1-based line of a byte offset (the parser's Shape would rescan the
// document from its start for each key).
func (l lines) lineAt(off int) int { return sort.SearchInts(l.nl, off) + 1 }

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
