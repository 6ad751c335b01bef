//go:build !unix

package manifest

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs here") }
