package journal

import (
	"hash/maphash"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jujutools/juju/internal/policy"
)

// maxReads bounds the files a ReadLog remembers; past it, it forgets them
// all and starts again (an edit of a forgotten file is simply not checked).
const maxReads = 100_000

// ReadLog remembers, for each file read through the fs host functions and
// each client session that read it, its modification time and size at the read,
// and a digest of its content when the read passed over all of it. An
// edit or a write without expectedSha256 of a file read earlier, and
// changed on disk since, is
// FILE_CHANGED: the caller's view of it is stale. A change made by the
// journal updates the log of the session that made it, so its consecutive
// edits need no new read; another session's read stays as it was, so a
// change one session makes is FILE_CHANGED to another's stale view, as a
// change made outside juju is (juju serve serves several clients, and one
// client, as two conversations of one connector, opens several sessions:
// each is a model's view of its own, and a view shared between them let
// the one that read last overwrite what the other wrote since).
type ReadLog struct {
	mu   sync.Mutex
	m    map[string]stamp
	seed maphash.Seed
}

// stamp is a file as a client read it. A file rewritten with content of
// the same size within one tick of the clock that stamps it, or whose
// time was set back, keeps its time and size: the digest tells it apart.
// maphash, not sha256: the read hashes every byte it passes over, and
// maphash costs a fraction of the read (docs/RATIONALE.md).
type stamp struct {
	mod    time.Time
	size   int64
	sum    uint64
	hashed bool // sum is the digest of the whole content
}

// NewReadLog returns an empty log.
func NewReadLog() *ReadLog { return &ReadLog{m: map[string]stamp{}, seed: maphash.MakeSeed()} }

// Seed is the seed of the digest SawContent takes: maphash's of a file's
// content.
func (l *ReadLog) Seed() maphash.Seed { return l.seed }

// Reader names the view a read belongs to: the MCP session that read,
// then the client, as approvals and plans know one, with its principal.
// A session id names one session of one server, but a client that
// declares another name in a later request keeps no view across it.
func Reader(client, principal, session string) string {
	return session + "\x00" + client + "\x00" + principal
}

// Forget drops the reads of session, which ended: no call comes on it
// again, and its reads would fill the log until maxReads clears the views
// of the sessions still open.
func (l *ReadLog) Forget(session string) {
	if l == nil {
		return
	}
	prefix := session + "\x00"
	l.mu.Lock()
	defer l.mu.Unlock()
	for k := range l.m {
		if strings.HasPrefix(k, prefix) {
			delete(l.m, k)
		}
	}
}

// readKey is the key of rel in root as read by reader.
func readKey(reader string, root *policy.Root, rel string) string {
	return reader + "\x00" + filepath.Join(root.Real, rel)
}

// SawContent records a read by reader (see Reader) of the resolved file r
// whose stat at the read was fi; when whole, the read passed over all its
// content, and sum is that content's digest (maphash with Seed).
func (l *ReadLog) SawContent(reader string, r *policy.Resolved, fi fs.FileInfo, sum uint64, whole bool) {
	if l == nil || r == nil || r.Root == nil || fi == nil || !fi.Mode().IsRegular() {
		return
	}
	l.put(reader, r.Root, r.Rel, stamp{fi.ModTime(), fi.Size(), sum, whole})
}

func (l *ReadLog) put(reader string, root *policy.Root, rel string, st stamp) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.m) >= maxReads {
		clear(l.m)
	}
	l.m[readKey(reader, root, rel)] = st
}

// stale reports whether rel in root, whose content is now content, was
// read by reader and has changed since.
func (l *ReadLog) stale(reader string, root *policy.Root, rel string, content []byte) bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	st, ok := l.m[readKey(reader, root, rel)]
	l.mu.Unlock()
	if !ok {
		return false
	}
	fi, err := root.OS.Lstat(rel)
	if err != nil || !fi.ModTime().Equal(st.mod) || fi.Size() != st.size {
		return true
	}
	return st.hashed && maphash.Bytes(l.seed, content) != st.sum
}

// wrote updates the log of reader after the journal changed rel in root
// for it, to content. A file it never read is logged too: the writer
// knows what it wrote, so a file it made or changed and another program
// changed since is FILE_CHANGED to its next write from that view, as a
// file it read is, instead of replaced with the other's lines lost.
func (l *ReadLog) wrote(reader string, root *policy.Root, rel string, content []byte) {
	if l == nil {
		return
	}
	k := readKey(reader, root, rel)
	if fi, err := root.OS.Lstat(rel); err == nil && fi.Mode().IsRegular() {
		l.put(reader, root, rel, stamp{fi.ModTime(), fi.Size(), maphash.Bytes(l.seed, content), true})
	} else {
		l.mu.Lock()
		delete(l.m, k)
		l.mu.Unlock()
	}
}
