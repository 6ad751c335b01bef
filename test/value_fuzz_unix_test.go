//go:build unix

package test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// vfSchema is as much of a schema as the odd-value generator needs.
type vfSchema struct {
	Type       any                  `json:"type"`
	Enum       []any                `json:"enum"`
	Minimum    *float64             `json:"minimum"`
	Maximum    *float64             `json:"maximum"`
	MinItems   *int                 `json:"minItems"`
	MaxItems   *int                 `json:"maxItems"`
	Items      *vfSchema            `json:"items"`
	Properties map[string]*vfSchema `json:"properties"`
	Required   []string             `json:"required"`
}

func (p *vfSchema) typ() string {
	switch t := p.Type.(type) {
	case string:
		return t
	case []any:
		s, _ := t[0].(string)
		return s
	}
	return "string"
}

// plain is an ordinary value that fits p.
func (p *vfSchema) plain(name string) any {
	if p == nil {
		return "a.txt"
	}
	if len(p.Enum) > 0 {
		return p.Enum[0]
	}
	switch p.typ() {
	case "integer", "number":
		if p.Minimum != nil && *p.Minimum > 1 {
			return *p.Minimum
		}
		return 1
	case "boolean":
		return false
	case "array":
		n := 1
		if p.MinItems != nil && *p.MinItems > n {
			n = *p.MinItems
		}
		out := make([]any, n)
		for i := range out {
			out[i] = p.Items.plain(name)
		}
		return out
	case "object":
		out := map[string]any{}
		for _, r := range p.Required {
			out[r] = p.Properties[r].plain(r)
		}
		return out
	}
	switch name {
	case "command":
		return "true"
	case "program":
		return "true"
	case "message", "content", "newString":
		return "hello"
	case "oldString":
		return "hello"
	case "pattern", "fileGlob":
		return "*.txt"
	case "url":
		return "https://127.0.0.1:1/"
	}
	return "a.txt"
}

// vfStrings are strings a schema that asks only for a string admits:
// paths that name the same place in odd ways, names at and past the
// length a file system allows, control and bidirectional characters,
// the fixtures (a folder, a fifo, /dev/zero by a symlink, an empty file,
// one 10 MB line), globs and regular expressions that trouble matchers.
func vfStrings() map[string]string {
	long := func(n int) string { return strings.Repeat("n", n) }
	deep := strings.Repeat("d/", 2047) + "x" // 4095 bytes
	return map[string]string{
		"empty": "", "dot": ".", "dot slash": "./", "a/../a": "a/../a.txt",
		"//a": "//a.txt", "a//b": "dir//f.txt", "trailing slash": "a.txt/", "dir/": "dir/",
		"name of 255": long(255), "name of 256": long(256), "path of 4096": deep + "x",
		"newline": "a\nb.txt", "controls": "a\x01\x1b[2J\x7f.txt", "RTL mark": "\u202ea.txt\u200f",
		"combining": "e\u0301\u0301\u0301.txt", "folder": "dir", "fifo": "fifo",
		"dev zero link": "zero", "empty file": "empty.txt", "10 MB line": "big.txt",
		"glob **": "**/**/**", "glob braces": "{a,{b,{c}}}", "glob [": "[", "backslash": "\\",
		"regex (a+)+$": "(a+)+$", "regex ^": "^", "regex [^]": "[^]", "dotdot": "..",
	}
}

// vfMatchers are the arguments that hold a glob or a regular expression:
// only they are sent the odd globs and regular expressions.
var vfMatchers = map[string]bool{"pattern": true, "fileGlob": true, "query": true,
	"symbol": true, "revision": true, "path": true, "oldString": true, "command": true}

// vfText are the odd strings every string argument is sent; the odd
// paths go only to the arguments that name a path.
var vfText = map[string]bool{"empty": true, "newline": true, "controls": true, "RTL mark": true,
	"combining": true, "name of 256": true, "path of 4096": true, "dot": true}

func vfPathArg(k string) bool {
	switch k {
	case "path", "paths", "cwd", "destination", "program", "fileGlob", "pattern", "revision":
		return true
	}
	return false
}

func vfMatcher(what string) bool {
	return strings.HasPrefix(what, "glob") || strings.HasPrefix(what, "regex") || what == "backslash"
}

// vfCall is one call of the generator.
type vfCall struct {
	name string
	args map[string]any
}

// vfCalls are the calls of a tool, each its plain arguments with one
// argument set to an odd value; in keeps those its input schema admits.
func vfCalls(t *testing.T, raw []byte, in *jsonschema.Schema) []vfCall {
	t.Helper()
	var sch vfSchema
	if err := json.Unmarshal(raw, &sch); err != nil {
		t.Fatal(err)
	}
	base := func() map[string]any {
		m := map[string]any{}
		for _, r := range sch.Required {
			m[r] = sch.Properties[r].plain(r)
		}
		return m
	}
	var out []vfCall
	add := func(name string, args map[string]any) {
		// Round trip so the schema check sees what the wire carries.
		b, _ := json.Marshal(args)
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil || in.Validate(v) != nil {
			return
		}
		out = append(out, vfCall{name, args})
	}
	add("plain", base())
	names := make([]string, 0, len(sch.Properties))
	for k := range sch.Properties {
		names = append(names, k)
	}
	slices.Sort(names)
	strs := vfStrings()
	for _, k := range names {
		p := sch.Properties[k]
		with := func(v any) map[string]any { m := base(); m[k] = v; return m }
		switch p.typ() {
		case "integer", "number":
			vals := map[string]any{"0": 0, "1": 1, "past EOF": 1 << 20, "2^53-1": int64(1)<<53 - 1}
			if p.Maximum != nil {
				vals["max"] = json.RawMessage(fmt.Sprintf("%.0f", *p.Maximum))
			}
			for what, v := range vals {
				add(k+" "+what, with(v))
			}
		case "boolean":
			add(k+" true", with(true))
			add(k+" false", with(false))
		case "string":
			for _, e := range p.Enum {
				add(fmt.Sprintf("%s %v", k, e), with(e))
			}
			if len(p.Enum) > 0 {
				continue
			}
			for what, v := range strs {
				if vfMatcher(what) && !vfMatchers[k] || !vfPathArg(k) && !vfText[what] {
					continue
				}
				add(k+" "+what, with(v))
			}
		case "array":
			lo, hi := 0, 3
			if p.MinItems != nil {
				lo = *p.MinItems
			}
			if p.MaxItems != nil {
				hi = *p.MaxItems
			}
			item := p.Items.plain(k)
			for _, n := range []int{lo, hi} {
				add(fmt.Sprintf("%s %d the same", k, n), with(slices.Repeat([]any{item}, n)))
			}
			if p.Items != nil && p.Items.typ() == "string" {
				for what, v := range strs {
					if vfMatcher(what) {
						continue
					}
					add(k+" of "+what, with([]any{v, v}))
				}
				add(k+" max of the 10 MB line", with(slices.Repeat([]any{"big.txt"}, hi)))
			}
		}
	}
	// The fixtures that trouble a reader, read at the first and the
	// farthest line or byte the schema admits.
	if pp := sch.Properties["path"]; pp != nil && pp.typ() == "string" {
		for _, k := range names {
			p := sch.Properties[k]
			if p.typ() != "integer" {
				continue
			}
			for _, f := range []string{"big.txt", "empty.txt", "fifo", "dir"} {
				for what, n := range map[string]any{"1": 1, "2^53-1": int64(1)<<53 - 1} {
					m := base()
					m["path"], m[k] = f, n
					add(fmt.Sprintf("path %s, %s %s", f, k, what), m)
				}
			}
		}
	}
	return out
}

// vfFixtures (re)makes what the odd values name: a.txt, a folder dir
// with a file, an empty file, one line of 10 MB, a fifo and a symlink to
// /dev/zero, all inside root. A call may have moved or deleted them.
func vfFixtures(t *testing.T, root string) {
	t.Helper()
	put := func(name, content string) {
		p := filepath.Join(root, name)
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && fi.Size() == int64(len(content)) {
			return
		}
		os.RemoveAll(p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("a.txt", "hello\n")
	put("keep.txt", "hello\n")
	put("dir/f.txt", "in dir\n")
	put("empty.txt", "")
	put("big.txt", strings.Repeat("x", 10<<20))
	if fi, err := os.Lstat(filepath.Join(root, "fifo")); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		os.RemoveAll(filepath.Join(root, "fifo"))
		if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if l, err := os.Readlink(filepath.Join(root, "zero")); err != nil || l != "/dev/zero" {
		os.RemoveAll(filepath.Join(root, "zero"))
		if err := os.Symlink("/dev/zero", filepath.Join(root, "zero")); err != nil {
			t.Fatal(err)
		}
	}
}

// vfSkip are the tools the generator leaves to their own tests: the
// language-server tools (each call may start a server) and fetch_url
// (it needs a TLS server of its own).
var vfSkip = []string{"document_symbols", "find_references", "find_symbol", "get_diagnostics",
	"go_to_definition", "fetch_url"}

// Every tool juju lists (but the language-server tools and fetch_url),
// called with arguments its input schema admits but which carry odd
// values — 0, 1, past the end, the schema's maximum and 2^53-1 for
// numbers; for strings the empty one, ".", "./", "a/../a", "//a", a
// trailing slash, names of 255 and 256 bytes, a path of 4096, newlines,
// control characters, RTL marks, combining characters, a folder where a
// file goes, a fifo, /dev/zero by a symlink, an empty file, a 10 MB line,
// globs and regular expressions that trouble matchers; arrays at their
// fewest and most items, all the same — answers within its time a result
// that fits its output schema: a success, or isError with a SPEC §10 code
// other than INTERNAL and PLUGIN_FAILED and a sentence. A file written is
// read back as written, and juju answers a plain call after all of them.
func TestEveryToolTakesOddValuesItsSchemaAdmits(t *testing.T) {
	root := workspace(t, map[string]string{})
	vfFixtures(t, root)
	git := exec.Command("sh", "-c", "git init -q -b main && git -c user.name=o -c user.email=o@e add a.txt dir && git -c user.name=o -c user.email=o@e commit -qm first")
	git.Dir = root
	git.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git: %v\n%s", err, out)
	}
	home := t.TempDir()
	writeConfig(t, home, "[approvals]\ntimeoutMs = 1\naskInClient = false\n")
	s := startHome(t, home, root, "--mode", "trusted", "--sandbox", "off")
	tools := wireToolsList(t)
	in, out := strictSchemas(t, tools)
	check := shapeCheck{t: t, out: out}
	start := time.Now()
	calls := 0
	if p := os.Getenv("VF_LOG"); p != "" {
		vfLog, _ = os.Create(p)
		defer vfLog.Close()
	}
	for _, tool := range tools {
		if slices.Contains(vfSkip, tool.Name) {
			continue
		}
		for _, c := range vfCalls(t, tool.InputSchema, in[tool.Name]) {
			vfFixtures(t, root)
			calls++
			what := fmt.Sprintf("%s, %s", tool.Name, c.name)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			req := mcp.CallToolRequest{}
			req.Params.Name = tool.Name
			req.Params.Arguments = c.args
			t0 := time.Now()
			res, err := s.c.CallTool(ctx, req)
			cancel()
			if d := time.Since(t0); d > time.Second {
				t.Logf("%s: %v", what, d.Round(time.Millisecond))
			}
			if vfLog != nil && err == nil {
				a, _ := json.Marshal(c.args)
				fmt.Fprintf(vfLog, "%s %.200s\n  -> %.300q\n", what, a, text(res))
			}
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("%s: no answer in 30 s", what)
			}
			sc := check.result(what, tool.Name, res, err)
			if err != nil || sc == nil {
				continue
			}
			if !res.IsError {
				vfReadBack(t, s, what, tool.Name, c.args)
				if tool.Name != "rollback_changes" {
					vfUndo(t, s, what, sc)
				}
				continue
			}
			code, _ := sc["code"].(string)
			msg, _ := sc["message"].(string)
			switch {
			case !slices.Contains(spec10Codes, code):
				t.Errorf("%s: code %q is not one of SPEC §10: %s", what, code, abbrev(text(res)))
			case code == "INTERNAL" || code == "PLUGIN_FAILED":
				t.Errorf("%s: %s for a call its schema admits: %s", what, code, abbrev(text(res)))
			case text(res) != code+": "+msg:
				t.Errorf("%s: the text does not begin with the code: %s", what, abbrev(text(res)))
			case len(msg) < 20:
				t.Errorf("%s: a message of %d bytes: %s", what, len(msg), abbrev(msg))
			}
		}
	}
	t.Logf("%d calls in %v", calls, time.Since(start).Round(time.Millisecond))
	vfFixtures(t, root)
	if got := s.ok("read_file", map[string]any{"path": "keep.txt"}); !strings.Contains(got, "hello") {
		t.Fatalf("read_file after the odd calls: %s", got)
	}
}

var vfLog *os.File

// vfUndo rolls back the change a call made, through juju, so the next
// call finds the fixtures as juju last wrote them; the rollback must
// succeed, or the journal lost what the call recorded.
func vfUndo(t *testing.T, s *session, what string, sc map[string]any) {
	t.Helper()
	id, _ := sc["changeId"].(string)
	if id == "" {
		return
	}
	res, err := s.callErr("rollback_changes", map[string]any{"changeId": id})
	if err != nil || res.IsError {
		t.Errorf("%s: rolling back its change %s: %v %s", what, id, err, abbrev(text(res)))
		return
	}
	// A rollback is a write juju's edits must see before they edit again.
	files, _ := sc["files"].([]any)
	for _, f := range files {
		m, _ := f.(map[string]any)
		if p, _ := m["path"].(string); p != "" && m["action"] != "dir-created" && m["action"] != "dir-deleted" {
			s.callErr("read_file", map[string]any{"path": p, "limit": 1})
		}
	}
}

// vfReadBack checks that a write_file that succeeded wrote what it was
// given, as the file system and read_file see it.
func vfReadBack(t *testing.T, s *session, what, tool string, args map[string]any) {
	t.Helper()
	if tool != "write_file" {
		return
	}
	path, _ := args["path"].(string)
	content, _ := args["content"].(string)
	p := path
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.root, p)
	}
	got, err := os.ReadFile(p)
	if err != nil || string(got) != content {
		t.Errorf("%s: the write succeeded, but %q holds %q (%v)", what, path, abbrev(string(got)), err)
	}
}

// list_directory on a FIFO refuses it without sending the model to
// read_file, which refuses a FIFO too: it says what the path is.
func TestListDirectoryOfAFifoDoesNotSendToReadFile(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, root)
	msg := s.fail("list_directory", map[string]any{"path": "fifo"}, "INVALID_ARGUMENT")
	if strings.Contains(msg, "read_file") || !strings.Contains(msg, "FIFO") {
		t.Fatalf("list_directory of a FIFO: %s", msg)
	}
	s.fail("read_file", map[string]any{"path": "fifo"}, "INVALID_ARGUMENT")
}
