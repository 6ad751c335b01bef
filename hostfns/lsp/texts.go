package lsp

import (
	"io/fs"
	"sync"
	"time"
)

// maxTextsCached bounds the texts kept of files no server has open.
const maxTextsCached = 256

// textCache keeps the text of files an answer quoted that no server has
// open (a definition in another file, a reference's line), with the stamp
// of the read: the next answer that lands in the same file, resolved
// through the policy again, takes the text while the file's stamp is the
// same instead of reading it again.
type textCache struct {
	mu    sync.Mutex
	byAbs map[string]cachedText
}

type cachedText struct {
	stamp stamp
	text  *text
}

// get is the text kept of abs when fi, the policy's stat of it now, gives
// the stamp it was read with.
func (tc *textCache) get(abs string, fi fs.FileInfo) *text {
	st := stampOf(fi)
	if !st.valid {
		return nil
	}
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if c, ok := tc.byAbs[abs]; ok && c.stamp == st {
		return c.text
	}
	return nil
}

// put keeps t, read from abs after fi was taken, when fi's stamp is sure.
func (tc *textCache) put(abs string, fi fs.FileInfo, t *text) {
	st := stampOf(fi)
	if !st.sure(time.Now()) {
		return
	}
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.byAbs == nil || len(tc.byAbs) >= maxTextsCached {
		tc.byAbs = map[string]cachedText{}
	}
	tc.byAbs[abs] = cachedText{stamp: st, text: t}
}
