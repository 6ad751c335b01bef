package journal

import (
	"io/fs"
	"path/filepath"
	"sync"
	"time"

	"github.com/jujutools/juju/internal/policy"
)

// maxReads bounds the files a ReadLog remembers; past it, it forgets them
// all and starts again (an edit of a forgotten file is simply not checked).
const maxReads = 100_000

// ReadLog remembers, for each file read through the fs host functions,
// its modification time and size at the read. An edit or a write without
// expectedSha256 of a file read earlier, and changed on disk since, is
// FILE_CHANGED: the caller's view of it is stale. A change made by the
// journal updates the log, so consecutive edits need no new read.
type ReadLog struct {
	mu sync.Mutex
	m  map[string]stamp
}

type stamp struct {
	mod  time.Time
	size int64
}

// NewReadLog returns an empty log.
func NewReadLog() *ReadLog { return &ReadLog{m: map[string]stamp{}} }

// Saw records a read of the resolved file r whose stat at the read was fi.
func (l *ReadLog) Saw(r *policy.Resolved, fi fs.FileInfo) {
	if l == nil || r == nil || r.Root == nil || fi == nil || !fi.Mode().IsRegular() {
		return
	}
	l.put(r.Root, r.Rel, fi)
}

func (l *ReadLog) put(root *policy.Root, rel string, fi fs.FileInfo) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.m) >= maxReads {
		clear(l.m)
	}
	l.m[filepath.Join(root.Real, rel)] = stamp{fi.ModTime(), fi.Size()}
}

// stale reports whether rel in root was read and has changed since.
func (l *ReadLog) stale(root *policy.Root, rel string) bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	st, ok := l.m[filepath.Join(root.Real, rel)]
	l.mu.Unlock()
	if !ok {
		return false
	}
	fi, err := root.OS.Lstat(rel)
	return err != nil || !fi.ModTime().Equal(st.mod) || fi.Size() != st.size
}

// wrote updates the log after the journal changed rel in root.
func (l *ReadLog) wrote(root *policy.Root, rel string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	_, ok := l.m[filepath.Join(root.Real, rel)]
	l.mu.Unlock()
	if !ok {
		return
	}
	if fi, err := root.OS.Lstat(rel); err == nil && fi.Mode().IsRegular() {
		l.put(root, rel, fi)
	} else {
		l.mu.Lock()
		delete(l.m, filepath.Join(root.Real, rel))
		l.mu.Unlock()
	}
}
