package config

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	toml "github.com/pelletier/go-toml/v2"
)

const docPath = "../../docs/config.md"

// tomlBlocks are the ```toml blocks of docs/config.md, and the text after each.
func tomlBlocks(t *testing.T) (blocks, after []string) {
	t.Helper()
	b, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(string(b), "```toml\n")
	for _, p := range parts[1:] {
		block, rest, ok := strings.Cut(p, "```\n")
		if !ok {
			t.Fatal("unclosed ```toml block in docs/config.md")
		}
		blocks = append(blocks, block)
		after = append(after, rest)
	}
	return blocks, after
}

func TestDocExampleIsTestdata(t *testing.T) {
	blocks, _ := tomlBlocks(t)
	want, err := os.ReadFile("testdata/example.toml")
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) == 0 || blocks[0] != string(want) {
		t.Errorf("the first ```toml block of docs/config.md differs from testdata/example.toml")
	}
}

// TestDocMistakes checks the doc's example of a file with mistakes against Parse.
func TestDocMistakes(t *testing.T) {
	blocks, after := tomlBlocks(t)
	if len(blocks) < 2 {
		t.Fatal("docs/config.md lacks the example with mistakes")
	}
	_, err := Parse([]byte(blocks[1]))
	var shown []string
	for _, l := range strings.Split(strings.TrimLeft(after[1], "\n"), "\n") {
		if !strings.HasPrefix(l, "    ") {
			break
		}
		shown = append(shown, strings.TrimPrefix(l, "    "))
	}
	if err == nil || strings.Join(shown, "\n") != err.Error() {
		t.Errorf("docs/config.md shows:\n%s\nParse says:\n%v", strings.Join(shown, "\n"), err)
	}
}

// TestDocListsEveryKey checks that docs/config.md has a row for every key, with the
// default of Default(), and no row for a key that does not exist.
func TestDocListsEveryKey(t *testing.T) {
	b, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_.0-9]+)` \\|(.*)$").FindAllStringSubmatch(string(b), -1) {
		cols := strings.Split(m[2], "|")
		for i := range cols {
			cols[i] = strings.TrimSpace(cols[i])
		}
		rows[m[1]] = cols
	}
	d := Default()
	var enc strings.Builder
	if err := d.Encode(&enc); err != nil {
		t.Fatal(err)
	}
	var tree map[string]map[string]any
	if err := toml.Unmarshal([]byte(enc.String()), &tree); err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for sec, m := range tree {
		for name, v := range m {
			key := sec + "." + name
			keys[key] = true
			if _, ok := lookupField(sec, name); !ok && key != "board.pins" {
				t.Errorf("Encode writes %s, which Parse does not know", key)
			}
			row, ok := rows[key]
			if !ok {
				t.Errorf("docs/config.md has no row for %s", key)
				continue
			}
			if len(row) < 2 || row[1] != "`"+render(v)+"`" {
				t.Errorf("docs/config.md: %s: default column %q, want `%s`", key, row, render(v))
			}
		}
	}
	for _, f := range fields {
		if !keys[f.section+"."+f.name] {
			t.Errorf("Encode does not write %s.%s", f.section, f.name)
		}
	}
	for key := range rows {
		if !keys[key] {
			t.Errorf("docs/config.md documents %s, which is no key", key)
		}
	}
	for _, p := range PinNames() {
		if !strings.Contains(string(b), "`"+p+"`") {
			t.Errorf("docs/config.md does not name the part %s", p)
		}
	}
}

// render writes a decoded TOML value as docs/config.md does.
func render(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case []any:
		if len(x) == 0 {
			return "[]"
		}
	case map[string]any:
		if len(x) == 0 {
			return "{}"
		}
	}
	return fmt.Sprint(v)
}
