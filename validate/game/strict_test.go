package game

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/packterm/pos/internal/strictjson"
)

// TestParseJSONStrict: a definition (as a ledger header carries it, signed) with a key
// given twice or in another case is refused: another reader would see another game.
func TestParseJSONStrict(t *testing.T) {
	good, err := json.Marshal(Reglement())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseJSON(good); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"price twice": bytes.Replace(good, []byte(`{"pack_price_cents":`), []byte(`{"pack_price_cents":1,"pack_price_cents":`), 1),
		"PRICE":       bytes.Replace(good, []byte(`"pack_price_cents"`), []byte(`"PACK_PRICE_CENTS"`), 1),
		"tier twice":  bytes.Replace(good, []byte(`"count":`), []byte(`"count":1,"count":`), 1),
	} {
		if bytes.Equal(b, good) {
			t.Fatalf("%s: edit did not apply", name)
		}
		if _, err := ParseJSON(b); !errors.Is(err, strictjson.ErrDuplicateKey) && !errors.Is(err, strictjson.ErrKeyCase) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
