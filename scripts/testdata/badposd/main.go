// Command badposd is the posd of a firmware that fails its trial (scripts/image-test.sh):
// it carries the version stamp fw build checks, says its version, and exits 1 at every
// start, so the terminal must roll back to the previous slot after its trial starts.
package main

import (
	"fmt"
	"os"

	"github.com/packterm/pos/internal/version"
)

func main() {
	fmt.Fprintln(os.Stderr, version.Line("posd")+": this firmware fails its trial on purpose")
	os.Exit(1)
}
