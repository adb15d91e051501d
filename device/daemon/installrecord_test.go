package daemon

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/validate/journal"
)

// A configuration change long enough to be cut is cut on a character: the journal takes
// only UTF-8, and a record it refused would lose the install's trace. Before, the cut fell
// inside "é" and the record was refused.
func TestInstallRecordCutOnACharacter(t *testing.T) {
	prefix := len("config installed (maintenance link): ")
	changes := strings.Repeat("a", journal.MaxDetailLen-prefix-1) + strings.Repeat("é", 10)
	e := InstallRecord(flash.Config, "", func() string { return changes })
	if len(e.Detail) > journal.MaxDetailLen || !utf8.ValidString(e.Detail) {
		t.Fatalf("detail of %d bytes, valid UTF-8 %v", len(e.Detail), utf8.ValidString(e.Detail))
	}
	if !strings.HasSuffix(e.Detail, "a") {
		t.Fatalf("detail ends %q", e.Detail[len(e.Detail)-4:])
	}
}
