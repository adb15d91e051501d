// Package installlock serialises the installs into one directory: every install path of
// the terminal (ledger, pack status list, operator and firmware key statements,
// configuration, firmware slots) reads what is installed, decides, and renames its new
// file in place while holding the lock of the destination directory, so that two
// installs never both decide against the same installed version (one of them would then
// roll the other back).
//
// The lock is an flock(2) on the file FileName in the directory. Each Acquire opens the
// file anew, and flock locks belong to the open file, so it excludes other processes
// (posctl on the board beside posd) and other goroutines of this process alike; no
// channel or map is shared between callers (which also keeps it usable from
// testing/synctest bubbles). A waiter blocks in flock(2) in a goroutine of its own, so
// that its context can end the wait. The lock file is created when missing and never
// removed (removing it would let two holders lock two different files); it holds no data.
// On systems without flock a mutex per directory stands in, within the process only.
package installlock
