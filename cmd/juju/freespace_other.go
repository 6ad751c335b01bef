//go:build !linux && !darwin

package main

import "errors"

// freeSpace is not measured here: doctor skips the check.
func freeSpace(string) (int64, error) { return 0, errors.New("not measured on this system") }
