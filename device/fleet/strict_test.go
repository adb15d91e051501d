package fleet

import (
	"errors"
	"strings"
	"testing"
)

// TestMessagesStrictJSON: a claim message with a key given twice or in another case is
// refused (another reader would see another result or amount).
func TestMessagesStrictJSON(t *testing.T) {
	for _, b := range []string{
		`{"result":"won","result":"error"}`,
		`{"result":"error","RESULT":"won"}`,
		`{"Result":"error"}`,
	} {
		_, err := DecodeClaimReply([]byte(b))
		if !errors.Is(err, ErrMessage) || !strings.Contains(err.Error(), "strictjson") {
			t.Errorf("%s: %v", b, err)
		}
	}
	if _, err := DecodeClaimReply([]byte(`{"result":"error"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeConflicts([]byte(`[{"ticket":"x","ticket":"y"}]`)); err == nil {
		t.Error("conflicts with a duplicate key decoded")
	}
}
