package config

import "io/fs"

// CheckFileOwner reports why a file juju takes trust from, other than
// config.toml, of st (as opened, links followed), may not be read: lsp.toml
// names the programs juju starts with the owner's rights, and juju serve's
// OAuth store says whom it lets in. A file another user owns or may write
// holds their choice, as a config.toml would. nil where files have no Unix
// owner.
func CheckFileOwner(path string, st fs.FileInfo) error { return checkFileOwner(path, st) }
