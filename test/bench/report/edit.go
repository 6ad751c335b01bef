package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// patchFiles is how many files the apply_patch line changes at once.
const patchFiles = 20

// edits are lines 9 (edit_file), 9w (write_file) and 9p (apply_patch of
// patchFiles files): juju's journaled writes over stdio (each records its
// intent and pre-image in the journal, writes atomically with fsync, and
// marks the change done), against the same edit done natively in-process
// the way a plain file server does it (read, replace, os.WriteFile).
func (b *bench) edits() []row {
	via := "one warm process in trusted mode, sequential calls, raw JSON-RPC over stdio; every call journaled (intent + pre-image, temp file + fsync + rename + fsync of the folder, done record)"
	r9 := row{ID: "11", Work: "edit_file (journaled), per call over stdio", Unit: "ms", Target: target{Limit: 3},
		Via: via, Against: "in-process read + strings.Replace + os.WriteFile, no journal, no fsync"}
	r9w := row{ID: "11w", Work: "write_file (journaled), per call over stdio", Unit: "ms", Target: target{Limit: 3},
		Via: via, Against: "in-process os.WriteFile, no journal, no fsync"}
	r9p := row{ID: "11p", Work: fmt.Sprintf("apply_patch of %d files, per call over stdio", patchFiles), Unit: "ms", Target: target{Limit: 3 * patchFiles},
		Via: via, Against: fmt.Sprintf("in-process read + replace + os.WriteFile of the %d files", patchFiles)}
	fail := func(err error) []row {
		return []row{r9.with(nil, nil, err), r9w.with(nil, nil, err), r9p.with(nil, nil, err)}
	}
	ws := filepath.Join(b.tmp, "edit-workspace")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return fail(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "edit.go"), []byte("package edit\n\nvar counter = 0\n"), 0o644); err != nil {
		return fail(err)
	}
	for i := range patchFiles {
		if err := os.WriteFile(filepath.Join(ws, fmt.Sprintf("p%02d.txt", i)), []byte("one\nstate a\nthree\n"), 0o644); err != nil {
			return fail(err)
		}
	}
	c := b.juju(b.warmHome, ws)
	c.args = append(c.args, "--mode", "trusted")
	j, err := b.live(c)
	if err != nil {
		return fail(err)
	}
	n := min(b.opts.calls, 400)
	b.progress("journaled edit_file, write_file and apply_patch (%d files), %d calls each", patchFiles, n)

	edit := func(i int) json.RawMessage {
		return callParams("edit_file", map[string]any{"path": "edit.go", "oldString": fmt.Sprintf("counter = %d\n", i), "newString": fmt.Sprintf("counter = %d\n", i+1)})
	}
	write := func(i int) json.RawMessage {
		return callParams("write_file", map[string]any{"path": "write.txt", "content": fmt.Sprintf("write %d\n", i)})
	}
	patch := func(i int) json.RawMessage {
		from, to := "a", "b"
		if i%2 == 1 {
			from, to = "b", "a"
		}
		var p strings.Builder
		for f := range patchFiles {
			fmt.Fprintf(&p, "--- a/p%02d.txt\n+++ b/p%02d.txt\n@@ -1,3 +1,3 @@\n one\n-state %s\n+state %s\n three\n", f, f, from, to)
		}
		return callParams("apply_patch", map[string]any{"patch": p.String()})
	}
	series := func(params func(int) json.RawMessage, calls int) (sample, error) {
		var s sample
		for i := range calls {
			d, err := timedCall(j, params(i))
			if err != nil {
				return nil, err
			}
			if i >= calls/10 { // the first tenth warms up
				s = append(s, d)
			}
		}
		return s, nil
	}
	nat := filepath.Join(b.tmp, "edit-native")
	os.MkdirAll(nat, 0o755)
	native := func(files, calls int, replace bool) sample {
		var s sample
		for f := range files {
			os.WriteFile(filepath.Join(nat, fmt.Sprintf("n%02d.txt", f)), []byte("package edit\n\nvar counter = 0\n"), 0o644)
		}
		for i := range calls {
			t := time.Now()
			for f := range files {
				name := filepath.Join(nat, fmt.Sprintf("n%02d.txt", f))
				content := []byte(fmt.Sprintf("write %d\n", i))
				if replace {
					old, _ := os.ReadFile(name)
					content = []byte(strings.Replace(string(old), fmt.Sprintf("counter = %d\n", i), fmt.Sprintf("counter = %d\n", i+1), 1))
				}
				os.WriteFile(name, content, 0o644)
			}
			if i >= calls/10 {
				s = append(s, time.Since(t))
			}
		}
		return s
	}

	es, err := series(edit, n)
	if err != nil {
		return fail(err)
	}
	ws9, err := series(write, n)
	if err != nil {
		return fail(err)
	}
	ps, err := series(patch, max(20, n/4))
	if err != nil {
		return fail(err)
	}
	r9 = r9.with(es, native(1, n, true), nil)
	r9w = r9w.with(ws9, native(1, n, false), nil)
	r9p = r9p.with(ps, native(patchFiles, max(20, n/4), true), nil)
	r9p.Note = "the target is 3 ms per file"
	return []row{r9, r9w, r9p}
}
