package test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// resultCap is what a client takes (SPEC §4): each of a result's text and
// its structured content stays under it.
const resultCap = 100_000

// copyCap bounds the structured content of a tool whose data is a text
// (a file, a diff, a job's output): it carries the shape, not the text again.
const copyCap = 20_000

// bigWorkspace makes a workspace large enough that every tool with a
// large result hits the caps: 2,500 files with long names, a 5 MB file of
// long lines, a 5 MB file of one line, a Makefile of 1,000 documented
// targets, and a git repository of 500 commits with long subjects (each
// changes log.txt) whose diff.txt, 1 MB, is rewritten.
func bigWorkspace(t *testing.T) (root string, fix capsFixture) {
	t.Helper()
	root = workspace(t, map[string]string{"README.md": "# caps\n"})
	put := func(name string, data []byte) {
		t.Helper()
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range manyFiles {
		put(manyName(i), []byte(fmt.Sprintf("needle %d\n", i)))
	}
	var b strings.Builder
	filler := strings.Repeat("x", 820)
	for i := 1; i <= bigLines; i++ {
		fmt.Fprintf(&b, "line %05d needle %s\n", i, filler)
	}
	put("big.txt", []byte(b.String()))
	fix.minJS = strings.Repeat("var é=1;", (5<<20)/9)
	put("min.js", []byte(fix.minJS))
	b.Reset()
	for i := range makeTargets {
		fmt.Fprintf(&b, ".PHONY: target-%04d-with-a-rather-long-name\ntarget-%04d-with-a-rather-long-name: ## builds part %d of the project, with a description long enough\n\techo %d\n", i, i, i, i)
	}
	put("Makefile", []byte(b.String()))

	git := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	git("", "init", "-q", "-b", "main")
	// 500 commits with long subjects in one fast-import (a git commit
	// each would take seconds); the last one adds diff.txt.
	var fi strings.Builder
	var old strings.Builder
	for i := range diffLines {
		fmt.Fprintf(&old, "old diff line %05d %s\n", i, strings.Repeat("o", 30))
	}
	for i := 1; i <= logCommits; i++ {
		msg := fmt.Sprintf("commit %03d: %s\n", i, strings.Repeat("a long subject ", 14))
		fmt.Fprintf(&fi, "commit refs/heads/main\ncommitter Owner Name <owner@example.com> %d +0000\ndata %d\n%s", 1_700_000_000+i, len(msg), msg)
		// Each commit changes a file: git_log lists the commits that
		// touch the workspace's paths, which leaves out empty ones.
		fmt.Fprintf(&fi, "M 100644 inline log.txt\ndata %d\n%d\n", len(strconv.Itoa(i))+1, i)
		if i == logCommits {
			fmt.Fprintf(&fi, "M 100644 inline diff.txt\ndata %d\n%s", old.Len(), old.String())
		}
		fi.WriteString("\n")
	}
	git(fi.String(), "fast-import", "--quiet")
	git("", "reset", "-q")
	put("diff.txt", []byte(strings.ReplaceAll(old.String(), "old", "new")))
	fix.diff = git("", "diff", "--unified=3", "--")
	return root, fix
}

// Sizes of the fixture.
const (
	manyFiles   = 2500
	bigLines    = 6000
	makeTargets = 1000
	logCommits  = 500
	diffLines   = 20000
)

type capsFixture struct {
	minJS string // min.js, one line
	diff  string // git diff of the workspace
}

func manyName(i int) string {
	return fmt.Sprintf("many/file-%04d-%s.txt", i, strings.Repeat("n", 50))
}

// capped checks a successful result: its text and its structured content
// each under resultCap. It returns the text, the structured content and
// the size of its JSON.
func capped(t *testing.T, res *mcp.CallToolResult) (string, map[string]any, int) {
	t.Helper()
	body := text(res)
	if res.IsError {
		t.Fatalf("the call failed: %.500s", body)
	}
	sc := structured(t, res)
	raw, _ := json.Marshal(sc)
	t.Logf("text %d bytes, structured content %d bytes", len(body), len(raw))
	if len(body) >= resultCap || len(raw) >= resultCap {
		t.Errorf("text %d bytes, structured content %d bytes; each must stay under %d", len(body), len(raw), resultCap)
	}
	return body, sc, len(raw)
}

// saysOffset finds "<word> N" in the text, where the result says how to
// read on, and returns N.
func saysOffset(t *testing.T, body, word string) int {
	t.Helper()
	m := regexp.MustCompile(word+`[ =:]+(\d+)`).FindAllStringSubmatch(body, -1)
	if m == nil {
		t.Fatalf("the cut is not said with the %s to read on: …%s", word, body[max(0, len(body)-600):])
	}
	n, _ := strconv.Atoi(m[len(m)-1][1])
	return n
}

// TestResultCaps: every tool that can return a large result keeps each of
// its text and its structured content under 100,000 bytes, says the cut
// and how to read on, and reading on gets the next part. Tools whose data
// is a text carry its shape, not a second copy, as structured content.
func TestResultCaps(t *testing.T) {
	root, fix := bigWorkspace(t)
	s := startExec(t, root)

	t.Run("list_directory", func(t *testing.T) {
		s := s.with(t)
		body, sc, _ := capped(t, s.call("list_directory", map[string]any{"path": "many", "limit": 2000}))
		next := saysOffset(t, body, "offset")
		if sc["truncated"] != true || next == 0 {
			t.Fatalf("not cut: truncated %v, next %d", sc["truncated"], next)
		}
		_, more, _ := capped(t, s.call("list_directory", map[string]any{"path": "many", "offset": next, "limit": 1}))
		if e := more["entries"].([]any); len(e) != 1 || e[0].(map[string]any)["path"] != manyName(next) {
			t.Fatalf("offset %d reads on at %v", next, e)
		}
	})

	t.Run("read_file", func(t *testing.T) {
		for _, numbered := range []bool{false, true} {
			s := s.with(t)
			body, sc, n := capped(t, s.call("read_file", map[string]any{"path": "big.txt", "numbered": numbered}))
			if n > copyCap {
				t.Errorf("numbered %v: structured content %d bytes: a second copy of the text", numbered, n)
			}
			next := saysOffset(t, body, "offset")
			if sc["truncated"] != true || next < 2 || num(t, sc, "nextOffset") != int64(next) {
				t.Fatalf("numbered %v: truncated %v, nextOffset %v, said %d", numbered, sc["truncated"], sc["nextOffset"], next)
			}
			on := s.ok("read_file", map[string]any{"path": "big.txt", "offset": next, "limit": 1})
			if !strings.HasPrefix(on, fmt.Sprintf("line %05d ", next)) {
				t.Fatalf("offset %d reads on at %.40q", next, on)
			}
		}
	})

	t.Run("read_file one long line", func(t *testing.T) {
		s := s.with(t)
		body, sc, n := capped(t, s.call("read_file", map[string]any{"path": "min.js"}))
		if n > copyCap {
			t.Errorf("structured content %d bytes: a second copy of the text", n)
		}
		next := saysOffset(t, body, "byteOffset")
		if sc["truncated"] != true || next < 1000 || !strings.HasPrefix(body, fix.minJS[:next]) {
			t.Fatalf("truncated %v, said byteOffset %d, text %.80q", sc["truncated"], next, body)
		}
		on, sc2, _ := capped(t, s.call("read_file", map[string]any{"path": "min.js", "byteOffset": next}))
		if !strings.HasPrefix(on, fix.minJS[next:next+1000]) {
			t.Fatalf("byteOffset %d reads on at %.80q", next, on)
		}
		after := saysOffset(t, on, "byteOffset")
		if after <= next || !strings.HasPrefix(on, fix.minJS[next:after]) || sc2["truncated"] != true {
			t.Fatalf("byteOffset %d: read on to %d, truncated %v", next, after, sc2["truncated"])
		}
		small := s.ok("read_file", map[string]any{"path": "min.js", "byteOffset": next, "maxBytes": 100})
		if !strings.HasPrefix(small, fix.minJS[next:next+90]) || len(small) > 600 {
			t.Fatalf("maxBytes 100: %d bytes: %.200q", len(small), small)
		}
	})

	t.Run("read_files", func(t *testing.T) {
		s := s.with(t)
		paths := []any{"big.txt", "min.js"}
		for i := 0; len(paths) < 50; i++ {
			paths = append(paths, manyName(i))
		}
		body, _, n := capped(t, s.call("read_files", map[string]any{"paths": paths, "numbered": true}))
		if n > 3*copyCap/2 {
			t.Errorf("structured content %d bytes: a second copy of the text", n)
		}
		if !strings.Contains(body, "needle 47") || !strings.Contains(body, "byteOffset") {
			t.Fatalf("a file is missing or the cut is not said: …%s", body[max(0, len(body)-600):])
		}
		next := saysOffset(t, body[:strings.Index(body, "==> min.js")], "offset")
		if on := s.ok("read_file", map[string]any{"path": "big.txt", "offset": next, "limit": 1}); !strings.HasPrefix(on, fmt.Sprintf("line %05d ", next)) {
			t.Fatalf("offset %d reads on at %.40q", next, on)
		}
	})

	t.Run("glob_files", func(t *testing.T) {
		s := s.with(t)
		body, sc, _ := capped(t, s.call("glob_files", map[string]any{"pattern": "many/*.txt"}))
		next := saysOffset(t, body, "offset")
		if sc["truncated"] != true || num(t, sc, "total") != manyFiles || next == 0 {
			t.Fatalf("truncated %v, total %v, next %d", sc["truncated"], sc["total"], next)
		}
		_, more, _ := capped(t, s.call("glob_files", map[string]any{"pattern": "many/*.txt", "offset": next, "limit": 1}))
		if f := more["files"].([]any); len(f) != 1 || f[0].(map[string]any)["path"] != manyName(next) {
			t.Fatalf("offset %d reads on at %v", next, f)
		}
	})

	t.Run("search_code", func(t *testing.T) {
		for _, args := range []map[string]any{
			{"pattern": "needle", "maxResults": 2000, "contextLines": 3},
			{"pattern": "needle", "maxResults": 2000, "outputMode": "files"},
			{"pattern": "needle", "maxResults": 2000, "outputMode": "count"},
		} {
			s := s.with(t)
			body, sc, _ := capped(t, s.call("search_code", args))
			if sc["truncated"] != true || !strings.Contains(body, "narrow") {
				t.Errorf("%v: the cut is not said: truncated %v …%s", args, sc["truncated"], body[max(0, len(body)-300):])
			}
		}
	})

	t.Run("git_diff", func(t *testing.T) {
		s := s.with(t)
		body, sc, n := capped(t, s.call("git_diff", map[string]any{}))
		if n > copyCap {
			t.Errorf("structured content %d bytes: a second copy of the diff", n)
		}
		next := saysOffset(t, body, "offset")
		if sc["cut"] != true || !strings.HasPrefix(body, fix.diff[:next]) {
			t.Fatalf("cut %v, next %d", sc["cut"], next)
		}
		on, _, _ := capped(t, s.call("git_diff", map[string]any{"offset": next}))
		if !strings.HasPrefix(on, fix.diff[next:next+1000]) {
			t.Fatalf("offset %d reads on at %.80q, want %.80q", next, on, fix.diff[next:])
		}
	})

	t.Run("git_log", func(t *testing.T) {
		s := s.with(t)
		body, sc, _ := capped(t, s.call("git_log", map[string]any{"limit": 500}))
		next := saysOffset(t, body, "offset")
		if c := sc["commits"].([]any); len(c) != next || next == 0 || next >= logCommits {
			t.Fatalf("%d commits shown, read on at %d", len(c), next)
		}
		_, more, _ := capped(t, s.call("git_log", map[string]any{"offset": next, "limit": 1}))
		want := fmt.Sprintf("commit %03d:", logCommits-next)
		if c := more["commits"].([]any); len(c) != 1 || !strings.HasPrefix(c[0].(map[string]any)["subject"].(string), want) {
			t.Fatalf("offset %d reads on at %v, want %s", next, c, want)
		}
	})

	t.Run("job_output", func(t *testing.T) {
		s := s.with(t)
		const size = 400_000
		job := structured(t, s.call("run_command", map[string]any{"command": fmt.Sprintf("head -c %d /dev/zero | tr '\\0' a", size)}))
		id := job["jobId"].(string)
		body, sc, n := capped(t, s.call("job_output", map[string]any{"jobId": id, "limit": 262144}))
		if n > copyCap {
			t.Errorf("structured content %d bytes: a second copy of the output", n)
		}
		next := saysOffset(t, body, "offset")
		if next == 0 || next >= size || num(t, sc, "next") != int64(next) || sc["eof"] != false {
			t.Fatalf("next %v, said %d, eof %v", sc["next"], next, sc["eof"])
		}
		on := s.ok("job_output", map[string]any{"jobId": id, "offset": next, "limit": 10})
		if !strings.Contains(on, ">>>\n"+strings.Repeat("a", 10)+"\n<<<end of stdout ") {
			t.Fatalf("offset %d: %q", next, on)
		}
	})

	t.Run("replace_in_files and change_history", func(t *testing.T) {
		s := s.with(t)
		s.ok("write_file", map[string]any{"path": "first.txt", "content": "first\n"})
		// 600 files in one change: a change holds at most 1,000, and each
		// file read costs a host call.
		const replaced = "many/file-0[0-5]*.txt"
		for _, dry := range []bool{true, false} {
			body, _, _ := capped(t, s.call("replace_in_files", map[string]any{"oldString": "needle", "newString": "pin", "fileGlob": replaced, "dryRun": dry}))
			if !strings.Contains(body, "more path") {
				t.Errorf("dryRun %v: the cut of the paths is not said: …%s", dry, body[max(0, len(body)-400):])
			}
		}
		body, sc, _ := capped(t, s.call("change_history", map[string]any{}))
		changes := sc["changes"].([]any)
		if !strings.Contains(body, "more path") || len(changes) != 2 {
			t.Fatalf("the cut of the paths is not said, or %d changes: …%s", len(changes), body[max(0, len(body)-400):])
		}
		big, first := changes[0].(map[string]any)["id"], changes[1].(map[string]any)["id"]
		_, older, _ := capped(t, s.call("change_history", map[string]any{"offset": 1}))
		if c := older["changes"].([]any); len(c) != 1 || c[0].(map[string]any)["id"] != first {
			t.Fatalf("offset 1 reads on at %v, want %v", c, first)
		}
		body, one, _ := capped(t, s.call("change_history", map[string]any{"changeId": big}))
		if raw, _ := json.Marshal(one); strings.Contains(string(raw), "needle") {
			t.Errorf("the structured content holds the diff again: %.300s", raw)
		}
		next := saysOffset(t, body, "offset")
		if !strings.Contains(body, "-needle") {
			t.Errorf("the diff is not shown: %.300s", body)
		}
		on, _, _ := capped(t, s.call("change_history", map[string]any{"changeId": big, "offset": next}))
		if !strings.Contains(on, manyName(next)[len("many/"):]) || strings.Contains(on, manyName(next-1)+"\n") {
			t.Fatalf("offset %d reads on at %.300s", next, on)
		}
	})

	t.Run("project_overview", func(t *testing.T) {
		s := s.with(t)
		body, sc, _ := capped(t, s.call("project_overview", map[string]any{}))
		next := saysOffset(t, body, "offset")
		if tasks := sc["tasks"].([]any); len(tasks) != next || next == 0 {
			t.Fatalf("%d tasks shown, read on at %d", len(tasks), next)
		}
		_, more, _ := capped(t, s.call("project_overview", map[string]any{"offset": next}))
		tasks := more["tasks"].([]any)
		if len(tasks) == 0 || !strings.HasPrefix(tasks[0].(map[string]any)["name"].(string), fmt.Sprintf("target-%04d", next)) {
			t.Fatalf("offset %d reads on at %v", next, tasks[:min(1, len(tasks))])
		}
	})
}
