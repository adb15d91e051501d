module github.com/packterm/pos

go 1.26.0

require (
	github.com/creack/pty v1.1.24
	github.com/jonboulle/clockwork v0.5.0
	github.com/spf13/cobra v1.10.2
	github.com/tarm/serial v0.0.0-20180830185346-98f6abe2eb07
	golang.org/x/term v0.48.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
