// Package installlock serialises the installs into one directory: every install path of
// the terminal (ledger, pack status list, operator and firmware key statements,
// configuration, firmware slots) reads what is installed, decides, and renames its new
// file in place while holding the lock of the destination directory, so that two
// installs never both decide against the same installed version (one of them would then
// roll the other back).
//
// The lock is an flock(2) on the file FileName in the directory, which excludes other
// processes (posctl on the board beside posd), and an in-process semaphore per directory,
// which excludes other goroutines without tying up a thread per waiter. The lock file is
// created when missing and never removed (removing it would let two holders lock two
// different files); it holds no data. On systems without flock only the in-process
// semaphore applies.
package installlock
