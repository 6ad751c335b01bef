//go:build !linux

// Command nolandlock is a Linux-only helper of juju's end-to-end tests
// (see main.go); elsewhere it only says so.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "nolandlock: Landlock is a Linux feature")
	os.Exit(2)
}
