package version

import "testing"

func TestString(t *testing.T) {
	if got := String(); got != "dev (commit unknown)" {
		t.Fatalf("String() = %q", got)
	}
}
