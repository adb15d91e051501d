package config

import (
	"bytes"
	"fmt"
	"maps"
	"slices"

	toml "github.com/pelletier/go-toml/v2"
)

// Changes lists the settings that differ from was to now, each "section.key: old -> new"
// as the file spells them, sorted; the technician token's hash redacted (Redacted). It is
// what a configuration change is journalled with.
func Changes(was, now *Config) ([]string, error) {
	a, err := flat(was)
	if err != nil {
		return nil, err
	}
	b, err := flat(now)
	if err != nil {
		return nil, err
	}
	keys := slices.Sorted(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		if a[k] != b[k] {
			out = append(out, fmt.Sprintf("%s: %s -> %s", k, a[k], b[k]))
		}
	}
	return out, nil
}

// flat is c's settings, redacted, as "section.key" -> the value as Encode writes it.
func flat(c *Config) (map[string]string, error) {
	r := c.Redacted()
	var buf bytes.Buffer
	if err := r.Encode(&buf); err != nil {
		return nil, err
	}
	var m map[string]any
	if err := toml.Unmarshal(buf.Bytes(), &m); err != nil {
		return nil, fmt.Errorf("config: changes: %w", err)
	}
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if t, ok := v.(map[string]any); ok {
			for k, x := range t {
				walk(prefix+k+".", x)
			}
			return
		}
		out[prefix[:len(prefix)-1]] = fmt.Sprintf("%q", fmt.Sprint(v))
	}
	walk("", m)
	return out, nil
}
