//go:build !(linux && (amd64 || arm64 || riscv64 || loong64))

package fs

import (
	"io/fs"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// openFastWalk has no fast path on this platform: the walk uses os.Root.
func openFastWalk(*policy.Policy, *policy.Resolved) (walkDir, *abi.Error, bool) {
	return nil, nil, false
}

// forListing is d's Lstat: the portable walk allocates per entry.
func forListing(d walkDir) func(string) (fs.FileInfo, error) { return d.Lstat }
