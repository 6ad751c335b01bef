//go:build !linux

package journal

import (
	"errors"
	"io/fs"
	"os"
)

// unnamedTemp is Linux's O_TMPFILE, which this system lacks: every
// change writes named temporary files after its intent.
type unnamedTemp struct{}

var errNoUnnamed = errors.New("no unnamed temporary file here")

func writeUnnamed(*os.Root, string, []byte, fs.FileMode) (*unnamedTemp, error) {
	return nil, errNoUnnamed
}

func (t *unnamedTemp) link(string) error { return errNoUnnamed }
func (t *unnamedTemp) close()            {}
func (t *unnamedTemp) in(*os.Root) bool  { return false }
func (t *unnamedTemp) file() *os.File    { return nil }
