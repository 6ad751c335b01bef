package fs

import (
	"io/fs"
	"sync"
	"time"
)

// The ignore files a listing reads (.git/info/exclude, the .gitignore of
// the folder and of every folder above it) rarely change between two
// calls, and reading one costs a handful of system calls (open, stat, two
// reads, close, through os.Root one open and close per folder of its
// path) besides its parse. ignoreCache keeps each file parsed, with the
// stamp of the stat it was read under: a later call stats the file as
// before and takes the parsed rules when the stamp is the same, or reads
// and parses it again.

// maxCachedIgnores bounds the cache; past it, the cache starts again.
const maxCachedIgnores = 512

// ignoreKey names an ignore file: its root (by real path) and its
// root-relative name, and the folder its patterns are relative to.
type ignoreKey struct {
	root, name, base string
}

type cachedIgnore struct {
	stamp stamp
	f     *ignoreFile
}

var ignoreCache struct {
	sync.Mutex
	m map[ignoreKey]cachedIgnore
}

// ignoreParses counts the ignore files parsed through the cache, for tests.
var ignoreParses int64

// cachedIgnoreFile returns the rules of the regular file fi (key) whose
// content read returns: from the cache when fi's stamp is the one they
// were parsed under, else read and parsed (and kept once the file has
// settled: racyWindow). A file read fails with nil rules.
func cachedIgnoreFile(key ignoreKey, fi fs.FileInfo, read func() ([]byte, error)) *ignoreFile {
	st, ok := stampOf(fi)
	if ok {
		ignoreCache.Lock()
		c, hit := ignoreCache.m[key]
		ignoreCache.Unlock()
		if hit && c.stamp == st {
			return c.f
		}
	}
	data, err := read()
	if err != nil {
		return nil
	}
	f := parseIgnore(key.base, data)
	ignoreCache.Lock()
	defer ignoreCache.Unlock()
	ignoreParses++
	if ok && time.Since(time.Unix(0, max(st.ctime, st.mtime))) > racyWindow {
		if ignoreCache.m == nil || len(ignoreCache.m) >= maxCachedIgnores {
			ignoreCache.m = make(map[ignoreKey]cachedIgnore)
		}
		ignoreCache.m[key] = cachedIgnore{stamp: st, f: f}
	}
	return f
}
