// Package strictjson decodes JSON that is signed or trusted so that every reader sees the
// same values. encoding/json keeps the last of duplicate keys and matches keys to struct
// fields without regard to case ("VERSION", even "verſion", fill Version): a signer's
// tool and another reader could then see different values in the same signed bytes.
// Check walks the document token by token (json.Decoder.Token) beside the Go type it is
// for and refuses, at every object level (nested objects and the objects of arrays
// included):
//
//   - a key given twice, or twice under Unicode case folding;
//   - for a struct, a key that is not exactly one of its fields' JSON names (one that
//     differs from a name only by case is called out as such);
//   - data after the value.
//
// Unmarshal is Check followed by json.Decoder.Decode with DisallowUnknownFields. Values
// of types with their own UnmarshalJSON or UnmarshalText, and of interface types, are
// checked for duplicate keys only; map keys are compared exactly (maps are
// case-sensitive).
package strictjson

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Errors wrapped by every refusal of Check.
var (
	ErrDuplicateKey = errors.New("strictjson: duplicate key")
	ErrKeyCase      = errors.New("strictjson: key differs from the field name by case")
	ErrUnknownKey   = errors.New("strictjson: unknown field")
	ErrSyntax       = errors.New("strictjson: not one JSON value")
)

// maxDepth bounds the nesting of arrays and objects.
const maxDepth = 64

// Unmarshal checks data with Check, then decodes it into v (a non-nil pointer) refusing
// unknown fields.
func Unmarshal(data []byte, v any) error {
	if err := Check(data, v); err != nil {
		return err
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("strictjson: %w", err)
	}
	return nil
}

// Check checks that data is exactly one JSON value with no duplicate keys and, where v's
// type (v is typically the pointer Unmarshal would get) says which keys an object has,
// no key but those, spelled exactly.
func Check(data []byte, v any) error {
	c := checker{d: json.NewDecoder(bytes.NewReader(data))}
	c.d.UseNumber()
	if err := c.value(reflect.TypeOf(v), "", 0); err != nil {
		return err
	}
	if _, err := c.d.Token(); err != io.EOF {
		return fmt.Errorf("%w: trailing data after the value", ErrSyntax)
	}
	return nil
}

type checker struct {
	d *json.Decoder
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// schema is t with its pointers removed, or nil when t says nothing of its keys (an
// interface, or a type that decodes itself).
func schema(t reflect.Type) reflect.Type {
	for t != nil {
		if t.Implements(jsonUnmarshaler) || t.Implements(textUnmarshaler) ||
			reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
			return nil
		}
		switch t.Kind() {
		case reflect.Pointer:
			t = t.Elem()
		case reflect.Interface:
			return nil
		default:
			return t
		}
	}
	return nil
}

func (c *checker) value(t reflect.Type, at string, depth int) error {
	tok, err := c.d.Token()
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrSyntax, where(at), err)
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	if depth >= maxDepth {
		return fmt.Errorf("%w: %s: nested more than %d deep", ErrSyntax, where(at), maxDepth)
	}
	t = schema(t)
	switch delim {
	case '{':
		return c.object(t, at, depth+1)
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; c.d.More(); i++ {
			if err := c.value(elem, fmt.Sprintf("%s[%d]", at, i), depth+1); err != nil {
				return err
			}
		}
		_, err := c.d.Token() // ']'
		return err
	}
	return fmt.Errorf("%w: %s: unexpected %v", ErrSyntax, where(at), delim)
}

func (c *checker) object(t reflect.Type, at string, depth int) error {
	var fields map[string]reflect.Type
	var elem reflect.Type
	exact := false
	if t != nil {
		switch t.Kind() {
		case reflect.Struct:
			fields = fieldsOf(t)
		case reflect.Map:
			elem, exact = t.Elem(), true
		}
	}
	seen := map[string]string{}
	for c.d.More() {
		tok, err := c.d.Token()
		if err != nil {
			return fmt.Errorf("%w: %s: %v", ErrSyntax, where(at), err)
		}
		key, ok := tok.(string)
		if !ok {
			return fmt.Errorf("%w: %s: key %v", ErrSyntax, where(at), tok)
		}
		id := key
		if !exact {
			id = fold(key)
		}
		if first, dup := seen[id]; dup {
			if first == key {
				return fmt.Errorf("%w: %s: %q twice", ErrDuplicateKey, where(at), key)
			}
			return fmt.Errorf("%w: %s: %q and %q", ErrDuplicateKey, where(at), first, key)
		}
		seen[id] = key
		ft := elem
		if fields != nil {
			var ok bool
			if ft, ok = fields[key]; !ok {
				for name := range fields {
					if fold(name) == id {
						return fmt.Errorf("%w: %s: %q for %q", ErrKeyCase, where(at), key, name)
					}
				}
				return fmt.Errorf("%w: %s: %q", ErrUnknownKey, where(at), key)
			}
		}
		if err := c.value(ft, at+"."+key, depth); err != nil {
			return err
		}
	}
	_, err := c.d.Token() // '}'
	return err
}

// fieldsOf maps the JSON names of struct t's fields (as encoding/json names them: the
// tag's name, else the Go name; "-" skipped; embedded structs' fields promoted) to their
// types.
// The map is made once per type and shared (read only): a decode per claim rebuilt it
// by reflection every time (9 % of the claim service's CPU under load).
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	f, _ := fieldCache.LoadOrStore(t, buildFields(t))
	return f.(map[string]reflect.Type)
}

// fieldCache holds fieldsOf's maps by type.
var fieldCache sync.Map

func buildFields(t reflect.Type) map[string]reflect.Type {
	fields := map[string]reflect.Type{}
	for _, f := range reflect.VisibleFields(t) {
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				continue // its fields are visible on their own
			}
		}
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, ok := fields[name]; !ok || len(f.Index) == 1 {
			fields[name] = f.Type
		}
	}
	return fields
}

// fold maps s to one representative of its Unicode simple case folding class (the
// equivalence strings.EqualFold and encoding/json's key matching use).
func fold(s string) string {
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < utf8.RuneSelf
	}
	if ascii { // an ASCII letter's class is its two cases (and, for k and s, a sign above ASCII): the upper case is the least
		return strings.ToUpper(s)
	}
	return strings.Map(func(r rune) rune {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		return m
	}, s)
}

func where(at string) string {
	if at == "" {
		return "top level"
	}
	return strings.TrimPrefix(at, ".")
}
