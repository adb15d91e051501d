package testblock

import (
	"context"
	"testing"
)

func TestMake(t *testing.T) {
	b, err := Make(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Rows) != 64 {
		t.Fatalf("%d rows", len(b.Rows))
	}
	t.Log(b.Rows[0], b.Print)
}
