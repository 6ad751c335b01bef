package lsp

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"time"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// openDoc is a document juju opened in a server: the text the server has.
type openDoc struct {
	path    string // absolute, symlink-free
	uri     string
	version int
	text    *text
	gen     uint64 // the client's gen when this text was sent
	size    int64
	mod     time.Time
	used    time.Time
	// stamp is the file's when its text was read, and sure whether it may
	// stand for that text (stamp.sure): a call about the file while its
	// stat still gives that stamp sends nothing and reads nothing.
	stamp stamp
	sure  bool
}

// file is a file of the workspace, read through the path policy.
type file struct {
	res  *policy.Resolved
	abs  string // absolute, symlink-free
	uri  string
	body string
}

// resolveFile resolves a path from a plugin (or an absolute path from a
// server) to a regular file inside a root: secrets and denied paths are
// refused by the policy before anything is opened.
func (m *Manager) resolveFile(p string) (*policy.Resolved, *abi.Error) {
	r, e := m.pol.Resolve(p)
	if e != nil {
		return nil, e
	}
	if !r.Info.Mode().IsRegular() {
		return nil, abi.Errorf(abi.InvalidArgument, "%q is not a file; pass a source file", r.Display)
	}
	return r, nil
}

// absOf is the absolute, symlink-free path of a resolved file.
func absOf(r *policy.Resolved) string {
	return filepath.Join(r.Root.Real, filepath.FromSlash(r.Rel))
}

// read reads a resolved file through the policy.
func (m *Manager) read(r *policy.Resolved) (*file, *abi.Error) {
	if r.Info.Size() > MaxFileSize {
		return nil, abi.Errorf(abi.TooLarge, "%q is larger than %d MiB; language servers are not sent files that large", r.Display, MaxFileSize>>20)
	}
	f, _, e := m.pol.OpenRead(r)
	if e != nil {
		return nil, e
	}
	defer f.Close()
	m.reads.Add(1)
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, abi.Errorf(abi.Internal, "juju could not read %q; try again", r.Display)
	}
	abs := absOf(r)
	return &file{res: r, abs: abs, uri: fileURI(abs), body: string(b)}, nil
}

// readOpen reads r through the policy and makes c's server hold its text;
// not read again when the server has it from a read whose stamp r's stat
// (the policy's, as it resolved the path) still gives.
func (m *Manager) readOpen(ctx context.Context, c *client, r *policy.Resolved) (*openDoc, error) {
	if d := c.unchanged(r); d != nil {
		return d, nil
	}
	f, e := m.read(r)
	if e != nil {
		return nil, e
	}
	return c.open(ctx, f)
}

// unchanged is the open document of r when its stamp is sure and r's stat
// gives it still.
func (c *client) unchanged(r *policy.Resolved) *openDoc {
	st := stampOf(r.Info)
	if !st.valid {
		return nil
	}
	uri := fileURI(absOf(r))
	c.syncMu.Lock() // an open or change under way ends first
	defer c.syncMu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.docs[uri]
	if d == nil || !d.sure || d.stamp != st {
		return nil
	}
	d.used = time.Now()
	return d
}

// open makes the server hold f's current text: didOpen the first time,
// didChange (the whole text) when it differs from what it has.
func (c *client) open(ctx context.Context, f *file) (*openDoc, error) {
	c.syncMu.Lock()
	defer c.syncMu.Unlock()
	now := time.Now()
	c.mu.Lock()
	d := c.docs[f.uri]
	same := d != nil && d.text.s == f.body
	if same {
		d.used = now
		d.stamp = stampOf(f.res.Info)
		d.sure = d.stamp.sure(now)
	}
	c.mu.Unlock()
	if same {
		return d, nil
	}
	lang, _ := abi.LanguageOf(f.abs)
	if d == nil {
		d = &openDoc{path: f.abs, uri: f.uri, version: 1, text: newText(f.body), size: f.res.Info.Size(), mod: f.res.Info.ModTime(), used: now}
		d.stamp = stampOf(f.res.Info)
		d.sure = d.stamp.sure(now)
		c.mu.Lock()
		c.gen++
		d.gen = c.gen
		c.docs[f.uri] = d
		c.mu.Unlock()
		err := c.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": f.uri, "languageId": lang.LanguageID(f.abs), "version": d.version, "text": f.body,
		}})
		if err != nil {
			return nil, c.died()
		}
		c.closeExtra(ctx)
		return d, nil
	}
	if err := c.change(ctx, d, f.body, f.res.Info); err != nil {
		return nil, err
	}
	return d, nil
}

// change sends d's new text.
func (c *client) change(ctx context.Context, d *openDoc, body string, fi os.FileInfo) error {
	c.mu.Lock()
	c.gen++
	d.gen = c.gen
	d.version++
	d.text = newText(body)
	d.size, d.mod, d.used = fi.Size(), fi.ModTime(), time.Now()
	d.stamp = stampOf(fi)
	d.sure = d.stamp.sure(d.used)
	version := d.version
	c.mu.Unlock()
	err := c.conn.Notify(ctx, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": d.uri, "version": version},
		"contentChanges": []any{map[string]any{"text": body}},
	})
	if err != nil {
		return c.died()
	}
	return nil
}

// closeDoc closes d in the server.
func (c *client) closeDoc(ctx context.Context, d *openDoc) {
	c.mu.Lock()
	delete(c.docs, d.uri)
	c.gen++
	c.mu.Unlock()
	c.conn.Notify(ctx, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": d.uri}})
}

// closeExtra closes the least recently used documents past MaxOpen.
func (c *client) closeExtra(ctx context.Context) {
	c.mu.Lock()
	var docs []*openDoc
	for _, d := range c.docs {
		docs = append(docs, d)
	}
	c.mu.Unlock()
	if len(docs) <= c.m.opts.MaxOpen {
		return
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].used.Before(docs[j].used) })
	for _, d := range docs[:len(docs)-c.m.opts.MaxOpen] {
		c.closeDoc(ctx, d)
	}
}

// docText is the text the server has of d now.
func (c *client) docText(d *openDoc) *text {
	c.mu.Lock()
	defer c.mu.Unlock()
	return d.text
}

// doc returns the open document of uri, if any.
func (c *client) doc(uri string) *openDoc {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.docs[uri]
}

// flush brings the server up to date before a query: the files juju wrote
// since the last one (Changed), and open documents changed on disk by
// anything else. Open documents get didChange (or didClose when gone or no
// longer readable), others a watched-files notification. When anything
// was sent, a barrier makes sure the server has read it.
func (c *client) flush(ctx context.Context) error {
	c.syncMu.Lock()
	defer c.syncMu.Unlock()
	commanded := c.commandChanges(ctx)
	c.mu.Lock()
	dirty := c.dirty
	c.dirty = map[string]int{}
	for p, typ := range commanded {
		if dirty[p] == 0 {
			dirty[p] = typ
		}
	}
	var open []*openDoc
	for _, d := range c.docs {
		open = append(open, d)
	}
	c.mu.Unlock()
	sent := false
	for _, d := range open {
		if dirty[d.path] != 0 {
			continue
		}
		c.mu.Lock()
		size, mod := d.size, d.mod
		c.mu.Unlock()
		fi, err := os.Stat(d.path)
		if err != nil {
			dirty[d.path] = eventDeleted
		} else if fi.Size() != size || !fi.ModTime().Equal(mod) {
			dirty[d.path] = eventChanged
		}
	}
	var events []fileEvent
	paths := make([]string, 0, len(dirty))
	for p := range dirty {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		uri := fileURI(p)
		d := c.doc(uri)
		var f *file
		r, e := c.m.resolveFile(p)
		if e == nil {
			f, e = c.m.read(r)
		}
		switch {
		case d != nil && e != nil:
			c.closeDoc(ctx, d)
			events = append(events, fileEvent{URI: uri, Type: eventDeleted})
		case d != nil:
			c.mu.Lock()
			same := f.body == d.text.s
			c.mu.Unlock()
			if !same {
				if err := c.change(ctx, d, f.body, r.Info); err != nil {
					return err
				}
				sent = true
			}
		case e == nil || e.Code == abi.NotFound:
			// Not open: the server reads the file itself; tell it it
			// changed. A secret or denied path is never named.
			typ := dirty[p]
			if e != nil {
				typ = eventDeleted
			}
			events = append(events, fileEvent{URI: uri, Type: typ})
		}
	}
	if len(events) > 0 {
		c.mu.Lock()
		c.gen++
		c.mu.Unlock()
		if err := c.conn.Notify(ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": events}); err != nil {
			return c.died()
		}
		sent = true
	}
	if sent {
		return c.barrier(ctx)
	}
	return nil
}

// Watched-file event types.
const (
	eventCreated = 1
	eventChanged = 2
	eventDeleted = 3
)

// lookSlack is how far before the last look a file's modification time may
// lie and still be named: a file's time comes from the kernel's coarse
// clock, a little behind the time the look began.
const lookSlack = 2 * time.Second

// lookEvery is how old the last look may be before a query looks again
// though the epoch has not moved: the owner's editor, a formatter on
// save, a git client write files through no call of juju's, and a server
// not told of them answers from the text it read before (a definition on
// a line that moved, a reference to a name that is gone). Queries closer
// together than this, a burst of them, share one look.
const lookEvery = 2 * time.Second

// commandChanges lists the files under the server's root a command, or
// anything else outside juju, may have changed, when the workspace's
// epoch has moved since the last look (juju moves it around every call
// that may change files, and when a command job ends) or the last look is
// lookEvery old, with the event to name each by: a command's writes (go
// generate, git checkout, a file made or removed with a shell) and the
// owner's editor's go through no journal, and a server that is not told
// of a file created, changed or deleted next to the ones it has open
// never reads or forgets it. A file modified since the last look, new to
// it or whose time differs from the one it saw is named as created, which
// makes gopls load its package again; a file the last look saw and this one does not find
// is named as deleted. The look is bounded (walkLimit entries, the call's
// context), passes over folders no server needs (skipDirs) and anything
// the policy hides, so a secret or denied path is never named, not even
// as deleted; a file is called deleted only when the folder that held it,
// or the nearest folder above whose entry is gone, was listed this time.
func (c *client) commandChanges(ctx context.Context) map[string]int {
	if c.m.opts.Epoch == nil {
		return nil
	}
	select {
	case <-c.baseline:
	case <-ctx.Done():
		return nil
	}
	epoch := c.m.opts.Epoch()
	if epoch == c.epoch && time.Since(c.looked) < lookEvery {
		return nil
	}
	since := c.looked.Add(-lookSlack)
	c.epoch, c.looked = epoch, time.Now()
	w := c.walkRoot(ctx)
	if w == nil {
		return nil
	}
	out := map[string]int{}
	for p, mod := range w.files {
		// A file's time may also move back, or stay old on a new path:
		// cp -p, tar, rsync -a, mv keep the time the file had.
		last, known := c.files[p]
		if mod.After(since) || !known || !last.IsZero() && !last.Equal(mod) {
			out[p] = eventCreated
		}
	}
	for p := range c.files {
		if _, ok := w.files[p]; ok {
			continue
		}
		if w.gone(p) {
			out[p] = eventDeleted
		} else {
			w.files[p] = time.Time{} // not reached this time: still known
		}
	}
	c.files = w.files
	return out
}

// lookFirst takes the first look over the server's root, while it
// starts, so that a file a command deletes before the first query is
// known to have been there.
func (c *client) lookFirst(ctx context.Context) {
	defer close(c.baseline)
	if c.m.opts.Epoch == nil {
		return
	}
	if w := c.walkRoot(ctx); w != nil {
		c.files = w.files
	}
}

// rootWalk is what one look over a server's root found.
type rootWalk struct {
	top    string               // the server's root, absolute
	files  map[string]time.Time // regular files, absolute, → modification time
	dirs   map[string]bool      // folders seen as an entry (or the top)
	listed map[string]bool      // folders whose every entry was looked at
}

// gone reports whether p, a file an earlier look saw, is known to be gone:
// the nearest folder above it that this look listed holds no entry on the
// way to it.
func (w *rootWalk) gone(p string) bool {
	child := p
	for d := filepath.Dir(p); within(d, w.top); child, d = d, filepath.Dir(d) {
		if w.listed[d] {
			return child == p || !w.dirs[child]
		}
		if d == w.top {
			break
		}
	}
	return false
}

// walkRoot looks over the server's root within its bounds; nil when the
// root lies in none of the policy's roots.
func (c *client) walkRoot(ctx context.Context) *rootWalk {
	var root *policy.Root
	var rel string
	for _, r := range c.m.pol.Roots() {
		if within(c.root, r.Real) {
			root = r
			rel, _ = filepath.Rel(r.Real, c.root)
			break
		}
	}
	if root == nil {
		return nil
	}
	abs := func(p string) string { return filepath.Join(root.Real, filepath.FromSlash(p)) }
	top := filepath.ToSlash(rel)
	w := &rootWalk{top: abs(top), files: map[string]time.Time{}, dirs: map[string]bool{abs(top): true}, listed: map[string]bool{}}
	fsys := root.OS.FS()
	queue, seen := []string{top}, 0
	for len(queue) > 0 && seen < walkLimit && ctx.Err() == nil {
		d := queue[0]
		queue = queue[1:]
		entries, err := fs.ReadDir(fsys, d)
		if err != nil {
			continue
		}
		w.listed[abs(d)] = true
		for _, en := range entries {
			seen++
			name := en.Name()
			p := path.Join(d, name)
			if c.m.pol.Hidden(root, p) {
				continue
			}
			switch {
			case en.IsDir():
				w.dirs[abs(p)] = true
				if name != ".git" && !skipDirs[name] {
					queue = append(queue, p)
				}
			case en.Type().IsRegular():
				if fi, err := en.Info(); err == nil {
					w.files[abs(p)] = fi.ModTime()
				}
			}
		}
	}
	return w
}
