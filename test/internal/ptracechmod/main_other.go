//go:build !linux || !amd64

// Command ptracechmod is a helper of juju's end-to-end tests for Linux on
// amd64 (see main.go); elsewhere it only says so.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "ptracechmod: written for Linux on amd64")
	os.Exit(2)
}
