//go:build !unix

package config

import "io/fs"

// checkPrivate is a no-op where folders have no Unix owner and mode bits.
func checkPrivate(string) error { return nil }

// checkFileOwner is a no-op where files have no Unix owner and mode bits.
func checkFileOwner(string, fs.FileInfo) error { return nil }
