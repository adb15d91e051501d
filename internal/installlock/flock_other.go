//go:build !unix

package installlock

import (
	"context"
	"os"
)

const openFlags = 0

// Without flock only the in-process semaphore excludes.
func lockFile(context.Context, *os.File, bool) error { return nil }

func unlockFile(*os.File) error { return nil }
