package lsp

import (
	"io/fs"
	"time"
)

// stamp is what a stat says of a file or folder that any change to it
// moves: its identity, size, modification time and change time. The
// change time is the kernel's own (no call sets it), so a write that puts
// the modification time back (cp -p, touch -d, tar) still moves it.
type stamp struct {
	dev, ino uint64
	size     int64
	mod, chg int64 // nanoseconds
	mode     uint32
	valid    bool
}

// stampSlack is how much older than the moment it was taken a stamp's
// times must be for an equal stamp to mean an unchanged file. A file's
// times come from the kernel's coarse clock (a tick, or two seconds on
// some file systems): a write in the same tick as the one the stamp saw
// would leave it equal. A stamp that recent is not trusted, and the file
// is read again, as git does with its racily clean entries.
const stampSlack = 3 * time.Second

// sure reports whether s, taken by a stat before now, may stand for the
// content read with it: valid, and both its times older than stampSlack.
func (s stamp) sure(now time.Time) bool {
	limit := now.Add(-stampSlack).UnixNano()
	return s.valid && s.mod < limit && s.chg < limit
}

// stampOf is fi's stamp; not valid where the platform's stat does not
// give a change time.
func stampOf(fi fs.FileInfo) stamp { return sysStamp(fi) }
