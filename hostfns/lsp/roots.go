package lsp

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jujutools/juju/internal/policy"
)

// maxRootsCached bounds the folders whose server root is kept; past it the
// cache starts over.
const maxRootsCached = 4096

// rootCache keeps serverRoot's answer for each folder a call asked about,
// with the stamps of the folders the walk looked in: a marker created,
// deleted or renamed in any of them changes that folder's times, and the
// walk runs again. Checking the stamps is one lstat per folder; the walk
// is one stat through the root per folder and marker, each an openat
// of every folder on the way.
type rootCache struct {
	mu    sync.Mutex
	byDir map[rootKey]rootFound
	walks atomic.Int64
}

type rootKey struct{ root, dir, markers string }

type rootFound struct {
	root   string
	dirs   []string // absolute, from the file's folder up to the walk's top
	stamps []stamp
}

// find is serverRoot(r, markers), from the cache when every folder the
// walk looked in is as it was.
func (rc *rootCache) find(r *policy.Resolved, markers []string) string {
	k := rootKey{r.Root.Real, path.Dir(r.Rel), strings.Join(markers, "\x00")}
	rc.mu.Lock()
	f, ok := rc.byDir[k]
	rc.mu.Unlock()
	if ok && f.current() {
		return f.root
	}
	// The folders are stamped before the walk: a marker made while it runs
	// changes a stamp the next call compares.
	stamps := folderStamps(r.Root.Real, k.dir, ".")
	root, top := serverRoot(r, markers)
	rc.walks.Add(1)
	n := strings.Count(k.dir, "/") - strings.Count(top, "/") + 1
	if top == "." {
		n = len(stamps)
	}
	if n < 1 || n > len(stamps) {
		return root
	}
	now := time.Now()
	found := rootFound{root: root, stamps: stamps[:n]}
	for i, s := range found.stamps {
		if !s.sure(now) {
			return root
		}
		found.dirs = append(found.dirs, folderAt(r.Root.Real, k.dir, i))
	}
	rc.mu.Lock()
	if rc.byDir == nil || len(rc.byDir) >= maxRootsCached {
		rc.byDir = map[rootKey]rootFound{}
	}
	rc.byDir[k] = found
	rc.mu.Unlock()
	return root
}

// current reports whether every folder f's walk looked in still has the
// stamp it had.
func (f *rootFound) current() bool {
	for i, d := range f.dirs {
		fi, err := os.Lstat(d)
		if err != nil || stampOf(fi) != f.stamps[i] {
			return false
		}
	}
	return true
}

// folderAt is the absolute path of the i-th folder above dir (0: dir).
func folderAt(real, dir string, i int) string {
	for ; i > 0; i-- {
		dir = path.Dir(dir)
	}
	return filepath.Join(real, filepath.FromSlash(dir))
}

// folderStamps stamps the folders from dir up to top, nearest first; an
// invalid stamp (a folder gone, a platform without change times) ends the
// list.
func folderStamps(real, dir, top string) []stamp {
	var out []stamp
	for {
		fi, err := os.Lstat(filepath.Join(real, filepath.FromSlash(dir)))
		if err != nil {
			return out
		}
		s := stampOf(fi)
		if !s.valid {
			return out
		}
		out = append(out, s)
		if dir == top || dir == "." {
			return out
		}
		dir = path.Dir(dir)
	}
}
