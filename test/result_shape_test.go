package test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// wireTool is a tool as tools/list sends it, its schemas as they are:
// mcp-go's client keeps of an output schema only its type, properties and
// required, so {"type":"object","anyOf":[…]} reads as {"type":"object"},
// which every object fits.
type wireTool struct {
	Name         string                     `json:"name"`
	Title        *string                    `json:"title"`
	Description  string                     `json:"description"`
	Annotations  map[string]json.RawMessage `json:"annotations"`
	InputSchema  json.RawMessage            `json:"inputSchema"`
	OutputSchema json.RawMessage            `json:"outputSchema"`
}

// wireToolsList is tools/list read off the wire of a juju stdio of its
// own (with no plugin installed: the core tools).
func wireToolsList(t *testing.T) []wireTool {
	t.Helper()
	r := startRaw(t, workspace(t, map[string]string{"a.txt": "a\n"}))
	if init := r.send(t, initializeLine); init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	answer := r.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var list struct {
		Tools      []wireTool `json:"tools"`
		NextCursor *string    `json:"nextCursor"`
	}
	if err := json.Unmarshal(mustJSON(answer["result"]), &list); err != nil {
		t.Fatal(err)
	}
	if list.NextCursor != nil {
		t.Fatalf("tools/list has a next page: %s", *list.NextCursor)
	}
	return list.Tools
}

// strictSchemas compiles every listed tool's input and output schema as a
// strict client does: with a plain JSON Schema compiler, under the draft
// the schema declares (2020-12 when it declares none, as MCP says) and
// under draft-07 (Ajv's default, which the TypeScript SDK uses), each
// checked against its metaschema. It fails the test for a schema that
// does not compile under either.
func strictSchemas(t *testing.T, tools []wireTool) (in, out map[string]*jsonschema.Schema) {
	t.Helper()
	in, out = map[string]*jsonschema.Schema{}, map[string]*jsonschema.Schema{}
	compile := func(name string, raw json.RawMessage, draft *jsonschema.Draft) (*jsonschema.Schema, error) {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return nil, err
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(draft)
		c.AssertFormat()
		url := "urn:juju:" + name
		if err := c.AddResource(url, doc); err != nil {
			return nil, err
		}
		return c.Compile(url)
	}
	for _, tool := range tools {
		for _, d := range []*jsonschema.Draft{jsonschema.Draft2020, jsonschema.Draft7} {
			sin, err := compile(tool.Name+".in", tool.InputSchema, d)
			if err != nil {
				t.Errorf("%s: input schema under %v: %v", tool.Name, d, err)
			}
			if len(tool.OutputSchema) == 0 {
				t.Errorf("%s: no output schema", tool.Name)
				continue
			}
			sout, err := compile(tool.Name+".out", tool.OutputSchema, d)
			if err != nil {
				t.Errorf("%s: output schema under %v: %v", tool.Name, d, err)
			}
			if d == jsonschema.Draft2020 {
				in[tool.Name], out[tool.Name] = sin, sout
			}
		}
	}
	return in, out
}

// shapeCheck checks one tool result as a strict client does, and returns
// its structured content.
type shapeCheck struct {
	t   *testing.T
	out map[string]*jsonschema.Schema
}

func (c shapeCheck) result(what, tool string, res *mcp.CallToolResult, err error) map[string]any {
	t := c.t
	t.Helper()
	if err != nil {
		t.Errorf("%s: want a tool result, got the JSON-RPC error %v", what, err)
		return nil
	}
	if len(res.Content) == 0 {
		t.Errorf("%s: no content", what)
	}
	for i, item := range res.Content {
		switch v := item.(type) {
		case mcp.TextContent:
			if strings.TrimSpace(v.Text) == "" {
				t.Errorf("%s: content %d is an empty text", what, i)
			}
		case mcp.ImageContent:
			if v.Data == "" || v.MIMEType == "" {
				t.Errorf("%s: content %d is an image without data or type", what, i)
			}
		default:
			t.Errorf("%s: content %d is a %T", what, i, item)
		}
	}
	var raw []byte
	switch {
	case len(res.RawStructuredContent) > 0:
		raw = res.RawStructuredContent
	case res.StructuredContent != nil:
		raw, _ = json.Marshal(res.StructuredContent)
	}
	if raw == nil {
		// The TypeScript SDK refuses a result without structured
		// content from a tool that declares an output schema.
		t.Errorf("%s: no structured content, but %s declares an output schema: %s", what, tool, abbrev(text(res)))
		return nil
	}
	var sc map[string]any
	if err := json.Unmarshal(raw, &sc); err != nil {
		t.Errorf("%s: structured content is not a JSON object: %s", what, abbrev(string(raw)))
		return nil
	}
	if len(sc) == 0 {
		t.Errorf("%s: structured content is empty", what)
	}
	v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if sch := c.out[tool]; sch == nil {
		t.Errorf("%s: %s has no compiled output schema", what, tool)
	} else if err := sch.Validate(v); err != nil {
		t.Errorf("%s: structured content does not fit the output schema: %v\n%s", what, err, abbrev(string(raw)))
	}
	if res.IsError {
		code, _ := sc["code"].(string)
		msg, _ := sc["message"].(string)
		if len(sc) != 2 || !slices.Contains(spec10Codes, code) || msg == "" {
			t.Errorf("%s: an error's structured content is not {code, message} of SPEC §10: %s", what, abbrev(string(raw)))
		}
		if got := text(res); got != code+": "+msg {
			t.Errorf("%s: the text %q is not the code and the message %q", what, abbrev(got), abbrev(msg))
		}
		if !nextStep(msg) {
			t.Errorf("%s: the message does not end a sentence saying what to do next: %q", what, abbrev(msg))
		}
	} else if _, ok := sc["code"]; ok {
		if _, alsoMsg := sc["message"]; alsoMsg && len(sc) == 2 {
			t.Errorf("%s: a success whose structured content is an error's: %s", what, abbrev(string(raw)))
		}
	}
	return sc
}

// nextStep is whether msg is long enough to say what happened and what
// to do, with no blank edges.
func nextStep(msg string) bool {
	return len(msg) >= 20 && strings.TrimSpace(msg) == msg
}

// shapeStep is one call of the tour: tool and its arguments (made when
// the step runs, from what earlier steps answered), and the code the
// result must carry ("" for a success, "*" for either).
type shapeStep struct {
	tool string
	args func(got map[string]map[string]any) map[string]any
	want string
}

func fixed(m map[string]any) func(map[string]map[string]any) map[string]any {
	return func(map[string]map[string]any) map[string]any { return m }
}

// Every one of the tools juju lists, called over stdio to succeed and to
// fail in the ways a model meets (NOT_FOUND, PATH_DENIED, SECRET_DENIED,
// NO_MATCH, CONFLICT, FETCH_DISABLED, APPROVAL_PENDING …), answers what a
// strict client accepts: a non-empty content; structured content that is
// a JSON object fitting the tool's advertised output schema, checked by a
// plain JSON Schema validator; an error's isError with {code, message}
// of SPEC §10, its text the code and the message, the message a sentence
// saying what to do next. Every tool is called at least once each way.
// And its annotations are true to what each call did: a readOnlyHint
// tool changed nothing in the workspace, .git included, and one whose
// destructiveHint is false changed or removed nothing outside .git.
func TestEveryToolResultFitsItsOutputSchema(t *testing.T) {
	root := gitRepo(t)
	write(t, root, "a.txt", "one\ntwo\nthree\n")
	write(t, root, "sub/b.go", "package sub\n\n// Hello greets.\nfunc Hello() string { return \"hi\" }\n")
	img, err := os.ReadFile(filepath.Join(repoRoot, "test", "testdata", "images", "gradient.webp"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, "pic.webp", string(img))
	outside := t.TempDir()
	write(t, outside, "loot.txt", "x\n")
	home := t.TempDir()
	writeConfig(t, home, "[approvals]\ntimeoutMs = 1\naskInClient = false\n")
	s := startHome(t, home, root, "--mode", "trusted")
	list, err := s.c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	wire := wireToolsList(t)
	if len(wire) != len(list.Tools) {
		t.Fatalf("%d tools on the wire, %d in the session", len(wire), len(list.Tools))
	}
	_, out := strictSchemas(t, wire)
	check := shapeCheck{t: t, out: out}
	// The schemas checked against are the ones sent: a path that is a
	// number fits neither read_file's answer nor its error.
	if v, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"path":7}`)); out["read_file"].Validate(v) == nil {
		t.Fatal(`read_file's output schema admits {"path":7}: it is not the one tools/list sends`)
	}

	str := func(step, key string) func(got map[string]map[string]any) string {
		return func(got map[string]map[string]any) string {
			v, _ := got[step][key].(string)
			return v
		}
	}
	job := str("background", "jobId")
	plan := str("preview", "planId")
	change := str("apply", "changeId")
	steps := map[string]shapeStep{}
	var order []string
	add := func(name, tool, want string, args func(map[string]map[string]any) map[string]any) {
		steps[name] = shapeStep{tool, args, want}
		order = append(order, name)
	}
	ok := func(name, tool string, args map[string]any) { add(name, tool, "", fixed(args)) }
	bad := func(name, tool, code string, args map[string]any) { add(name, tool, code, fixed(args)) }
	loot := filepath.Join(outside, "loot.txt")

	// Reading.
	ok("list", "list_directory", map[string]any{"path": "."})
	bad("list missing", "list_directory", "NOT_FOUND", map[string]any{"path": "nope"})
	bad("list outside", "list_directory", "PATH_DENIED", map[string]any{"path": outside})
	ok("read", "read_file", map[string]any{"path": "a.txt", "numbered": true})
	bad("read past the end", "read_file", "INVALID_ARGUMENT", map[string]any{"path": "a.txt", "offset": 100})
	bad("read missing", "read_file", "NOT_FOUND", map[string]any{"path": "nope.txt"})
	bad("read secret", "read_file", "SECRET_DENIED", map[string]any{"path": ".env"})
	bad("read outside", "read_file", "PATH_DENIED", map[string]any{"path": loot})
	ok("read several", "read_files", map[string]any{"paths": []any{"a.txt", "nope.txt", ".env"}})
	bad("read several outside", "read_files", "*", map[string]any{"paths": []any{loot}})
	ok("info", "file_info", map[string]any{"path": "a.txt"})
	bad("info missing", "file_info", "NOT_FOUND", map[string]any{"path": "nope.txt"})
	ok("glob", "glob_files", map[string]any{"pattern": "**/*.go"})
	ok("glob none", "glob_files", map[string]any{"pattern": "**/*.zz"})
	bad("glob bad", "glob_files", "INVALID_ARGUMENT", map[string]any{"pattern": "[a"})
	ok("search", "search_code", map[string]any{"pattern": "Hello"})
	ok("search none", "search_code", map[string]any{"pattern": "zzznothing"})
	ok("search count", "search_code", map[string]any{"pattern": "package", "outputMode": "count"})
	ok("search files", "search_code", map[string]any{"pattern": "package", "outputMode": "files"})
	bad("search bad regexp", "search_code", "INVALID_ARGUMENT", map[string]any{"pattern": "(a"})
	bad("search outside", "search_code", "PATH_DENIED", map[string]any{"pattern": "x", "path": outside})
	ok("image", "read_image", map[string]any{"path": "pic.webp"})
	bad("image not one", "read_image", "*", map[string]any{"path": "a.txt"})
	bad("image missing", "read_image", "NOT_FOUND", map[string]any{"path": "nope.png"})
	ok("overview", "project_overview", map[string]any{})
	bad("overview missing", "project_overview", "NOT_FOUND", map[string]any{"path": "nope"})
	ok("instructions", "read_instructions", map[string]any{})
	bad("instructions outside", "read_instructions", "PATH_DENIED", map[string]any{"path": outside})
	ok("environment", "environment_info", map[string]any{})
	ok("git status", "git_status", map[string]any{})
	bad("git status outside", "git_status", "PATH_DENIED", map[string]any{"cwd": outside})
	ok("git diff", "git_diff", map[string]any{})
	ok("git diff staged", "git_diff", map[string]any{"staged": true})
	bad("git diff bad revision", "git_diff", "*", map[string]any{"revision": "nosuchbranch"})
	ok("git log", "git_log", map[string]any{"limit": 5})
	bad("git log bad revision", "git_log", "*", map[string]any{"revision": "nosuchbranch"})
	// Semantic (the heuristic index: no language server is configured).
	ok("symbol", "find_symbol", map[string]any{"symbol": "Hello"})
	ok("symbol none", "find_symbol", map[string]any{"symbol": "Zzznothing"})
	bad("symbol nothing asked", "find_symbol", "INVALID_ARGUMENT", map[string]any{})
	ok("references", "find_references", map[string]any{"symbol": "Hello"})
	bad("references missing", "find_references", "NOT_FOUND", map[string]any{"path": "nope.go", "line": 1, "column": 1})
	ok("definition", "go_to_definition", map[string]any{"path": "sub/b.go", "line": 4, "column": 7})
	bad("definition missing", "go_to_definition", "NOT_FOUND", map[string]any{"path": "nope.go", "line": 1, "column": 1})
	ok("document symbols", "document_symbols", map[string]any{"path": "sub/b.go"})
	bad("document symbols missing", "document_symbols", "NOT_FOUND", map[string]any{"path": "nope.go"})
	// Diagnostics come only from a language server: TestLSPOutputSchemas
	// checks their successes.
	bad("diagnostics without a server", "get_diagnostics", "NOT_FOUND", map[string]any{"path": "sub/b.go"})
	bad("diagnostics missing", "get_diagnostics", "NOT_FOUND", map[string]any{"path": "nope.go"})
	// Editing.
	ok("write", "write_file", map[string]any{"path": "w.txt", "content": "w\n"})
	bad("write outside", "write_file", "PATH_DENIED", map[string]any{"path": filepath.Join(outside, "w.txt"), "content": "w"})
	bad("write secret", "write_file", "SECRET_DENIED", map[string]any{"path": ".env", "content": "w"})
	bad("write hook", "write_file", "*", map[string]any{"path": ".git/hooks/post-commit", "content": "w"})
	bad("write stale", "write_file", "FILE_CHANGED", map[string]any{"path": "a.txt", "content": "w", "expectedSha256": strings.Repeat("0", 64)})
	ok("edit", "edit_file", map[string]any{"path": "a.txt", "oldString": "two", "newString": "TWO"})
	bad("edit no match", "edit_file", "NO_MATCH", map[string]any{"path": "a.txt", "oldString": "zzz", "newString": "y"})
	bad("edit ambiguous", "edit_file", "AMBIGUOUS_EDIT", map[string]any{"path": "a.txt", "oldString": "e", "newString": "E"})
	bad("edit missing", "edit_file", "NOT_FOUND", map[string]any{"path": "nope.txt", "oldString": "a", "newString": "b"})
	ok("mkdir", "make_directory", map[string]any{"path": "made/deep"})
	bad("mkdir over a file", "make_directory", "*", map[string]any{"path": "a.txt"})
	ok("move", "move_path", map[string]any{"path": "w.txt", "destination": "moved.txt"})
	bad("move missing", "move_path", "NOT_FOUND", map[string]any{"path": "nope.txt", "destination": "x.txt"})
	bad("move over", "move_path", "*", map[string]any{"path": "moved.txt", "destination": "a.txt"})
	ok("delete", "delete_path", map[string]any{"path": "moved.txt"})
	bad("delete missing", "delete_path", "NOT_FOUND", map[string]any{"path": "nope.txt"})
	bad("delete folder", "delete_path", "*", map[string]any{"path": "sub"})
	ok("patch dry", "apply_patch", map[string]any{"dryRun": true, "patch": "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-TWO\n+2\n three\n"})
	ok("patch", "apply_patch", map[string]any{"patch": "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-TWO\n+2\n three\n"})
	bad("patch conflict", "apply_patch", "CONFLICT", map[string]any{"patch": "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-zzz\n+2\n three\n"})
	bad("patch garbage", "apply_patch", "INVALID_ARGUMENT", map[string]any{"patch": "not a patch"})
	ok("replace dry", "replace_in_files", map[string]any{"oldString": "one", "newString": "ONE", "fileGlob": "*.txt"})
	ok("replace", "replace_in_files", map[string]any{"oldString": "one", "newString": "ONE", "fileGlob": "*.txt", "dryRun": false})
	bad("replace none", "replace_in_files", "NO_MATCH", map[string]any{"oldString": "zzznothing", "newString": "x", "fileGlob": "*.txt"})
	bad("replace count", "replace_in_files", "*", map[string]any{"oldString": "ONE", "newString": "one", "fileGlob": "*.txt", "dryRun": false, "expectedCount": 7})
	ok("preview", "preview_changes", map[string]any{"operations": []any{map[string]any{"op": "write", "path": "p.txt", "content": "p\n"}}})
	bad("preview bad", "preview_changes", "*", map[string]any{"operations": []any{map[string]any{"op": "write", "path": loot, "content": "p\n"}}})
	add("apply", "apply_changes", "", func(got map[string]map[string]any) map[string]any {
		return map[string]any{"planId": plan(got)}
	})
	bad("apply again", "apply_changes", "NOT_FOUND", map[string]any{"planId": "p999999"})
	ok("preview 2", "preview_changes", map[string]any{"operations": []any{map[string]any{"op": "write", "path": "q.txt", "content": "q\n"}}})
	add("discard", "discard_changes", "", func(got map[string]map[string]any) map[string]any {
		v, _ := got["preview 2"]["planId"].(string)
		return map[string]any{"planId": v}
	})
	bad("discard missing", "discard_changes", "NOT_FOUND", map[string]any{"planId": "p999999"})
	ok("history", "change_history", map[string]any{})
	ok("history path", "change_history", map[string]any{"path": "nope.txt"})
	bad("history missing", "change_history", "NOT_FOUND", map[string]any{"changeId": "c999999"})
	add("rollback", "rollback_changes", "", func(got map[string]map[string]any) map[string]any {
		return map[string]any{"changeId": change(got)}
	})
	bad("rollback missing", "rollback_changes", "NOT_FOUND", map[string]any{"changeId": "c999999"})
	ok("todo write", "todo_write", map[string]any{"todos": []any{map[string]any{"content": "do it", "status": "pending"}}})
	bad("todo write bad", "todo_write", "INVALID_ARGUMENT", map[string]any{"todos": []any{map[string]any{"content": "", "status": "pending"}}})
	ok("todo read", "todo_read", map[string]any{})
	// Commands and jobs.
	ok("run", "run_command", map[string]any{"command": "echo hi; echo err >&2; exit 3"})
	ok("run silent", "run_command", map[string]any{"command": "true"})
	bad("run outside", "run_command", "PATH_DENIED", map[string]any{"command": "true", "cwd": outside})
	ok("background", "run_command", map[string]any{"command": "echo started; sleep 30", "background": true})
	ok("exec", "exec_command", map[string]any{"program": "echo", "args": []any{"hi"}})
	bad("exec missing", "exec_command", "*", map[string]any{"program": "zzz-no-such-program"})
	ok("run several", "run_commands", map[string]any{"commands": []any{"echo a", "exit 1"}})
	bad("run several none", "run_commands", "INVALID_ARGUMENT", map[string]any{"commands": []any{}})
	add("job status", "job_status", "", func(got map[string]map[string]any) map[string]any { return map[string]any{"jobId": job(got)} })
	add("job output", "job_output", "", func(got map[string]map[string]any) map[string]any { return map[string]any{"jobId": job(got)} })
	add("job output empty", "job_output", "", func(got map[string]map[string]any) map[string]any {
		return map[string]any{"jobId": job(got), "stream": "stderr"}
	})
	add("job wait", "job_wait", "", func(got map[string]map[string]any) map[string]any {
		return map[string]any{"jobId": job(got), "waitMs": 10}
	})
	ok("jobs", "list_jobs", map[string]any{})
	add("cancel", "cancel_job", "", func(got map[string]map[string]any) map[string]any { return map[string]any{"jobId": job(got)} })
	add("cancel again", "cancel_job", "*", func(got map[string]map[string]any) map[string]any { return map[string]any{"jobId": job(got)} })
	bad("job status missing", "job_status", "NOT_FOUND", map[string]any{"jobId": "zzz"})
	bad("job output missing", "job_output", "NOT_FOUND", map[string]any{"jobId": "zzz"})
	bad("job wait missing", "job_wait", "NOT_FOUND", map[string]any{"jobId": "zzz"})
	bad("cancel missing", "cancel_job", "NOT_FOUND", map[string]any{"jobId": "zzz"})
	ok("commit", "git_commit", map[string]any{"message": "third", "paths": []any{"a.txt"}})
	bad("commit nothing", "git_commit", "*", map[string]any{"message": "nothing", "paths": []any{"nope.txt"}})
	bad("commit secret", "git_commit", "SECRET_DENIED", map[string]any{"message": "s", "paths": []any{".env"}})
	bad("fetch off", "fetch_url", "FETCH_DISABLED", map[string]any{"url": "https://example.com/"})
	ok("approvals", "approval_status", map[string]any{})
	bad("approval missing", "approval_status", "NOT_FOUND", map[string]any{"id": "zzz"})

	// And every tool, sent an argument it does not know.
	for _, tool := range list.Tools {
		bad(tool.Name+" unknown argument", tool.Name, "INVALID_ARGUMENT", map[string]any{"zzUnknown": 1})
	}

	hints := map[string]mcp.ToolAnnotation{}
	for _, tool := range list.Tools {
		hints[tool.Name] = tool.Annotations
	}
	got := map[string]map[string]any{}
	for _, name := range order {
		st := steps[name]
		args := st.args(got)
		before := treeState(t, root)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = st.tool, args
		res, err := s.c.CallTool(ctx, req)
		cancel()
		what := fmt.Sprintf("%s (%s %v)", name, st.tool, abbrev(string(mustJSON(args))))
		// The annotations are true to what the call did: a readOnlyHint
		// tool changed nothing, .git included; one that is not
		// destructiveHint only added (its own .git bookkeeping aside).
		after := treeState(t, root)
		a := hints[st.tool]
		for p, was := range before {
			now, ok := after[p]
			switch {
			case a.ReadOnlyHint != nil && *a.ReadOnlyHint && now != was:
				t.Errorf("%s: readOnlyHint, but %s changed", what, p)
			case a.DestructiveHint != nil && !*a.DestructiveHint && !strings.HasPrefix(p, ".git/") && (!ok || now != was):
				t.Errorf("%s: destructiveHint false, but %s changed or went", what, p)
			}
		}
		for p := range after {
			if _, ok := before[p]; !ok && a.ReadOnlyHint != nil && *a.ReadOnlyHint {
				t.Errorf("%s: readOnlyHint, but %s appeared", what, p)
			}
		}
		sc := check.result(what, st.tool, res, err)
		if res != nil && os.Getenv("SHAPEDUMP") != "" {
			t.Logf("%s: %s\n   SC %s", name, abbrev(text(res)), abbrev(string(mustJSON(sc))))
		}
		got[name] = sc
		if res == nil {
			continue
		}
		code, _ := sc["code"].(string)
		switch {
		case st.want == "" && res.IsError:
			t.Errorf("%s: want a success, got %s", what, abbrev(text(res)))
		case st.want != "" && st.want != "*" && (!res.IsError || code != st.want):
			t.Errorf("%s: want %s, got %s", what, st.want, abbrev(text(res)))
		}
	}
	// git_commit refused every path as withheld and said only that nothing
	// was committed: the model, told no next step, tried the paths again.
	if msg, _ := got["commit secret"]["message"].(string); !strings.Contains(msg, "leave them to the owner") {
		t.Errorf("commit secret: the message says no next step: %q", msg)
	}
	// Every listed tool was called, to succeed and to fail.
	for _, tool := range list.Tools {
		var succeeded, failed bool
		for _, name := range order {
			if steps[name].tool != tool.Name || got[name] == nil {
				continue
			}
			if _, isErr := got[name]["code"]; isErr {
				failed = true
			} else {
				succeeded = true
			}
		}
		if !succeeded && tool.Name != "fetch_url" && tool.Name != "get_diagnostics" {
			t.Errorf("%s: no call of the tour succeeded", tool.Name)
		}
		if !failed {
			t.Errorf("%s: no call of the tour failed", tool.Name)
		}
	}
}

// treeState is every path under root (.git included) with its mode, size
// and content's hash.
func treeState(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		state := fi.Mode().String()
		if d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			state += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		out[filepath.ToSlash(rel)] = state
		return nil
	})
	return out
}

// change_history asked for the changes of a path that none touched said
// "No change has been recorded in this workspace yet" beside changes it
// had recorded: its structured content (no changes) and its text told
// the model different things, and the text sent it away from a journal
// that rollback_changes could use. Now the text names the path and how
// to list every change.
func TestChangeHistoryOfAnUntouchedPathSaysSo(t *testing.T) {
	s := start(t, workspace(t, map[string]string{"a.txt": "a\n"}))
	s.ok("write_file", map[string]any{"path": "w.txt", "content": "w\n"})
	for _, args := range []map[string]any{{"path": "a.txt"}, {"path": "a.txt", "offset": 1}} {
		res := s.call("change_history", args)
		got := text(res)
		if res.IsError || strings.Contains(got, "No change has been recorded") || !strings.Contains(got, `"a.txt"`) ||
			!strings.Contains(got, "without path") {
			t.Errorf("change_history %v: %q", args, got)
		}
		if n := len(structured(t, res)["changes"].([]any)); n != 0 {
			t.Errorf("change_history %v: %d changes", args, n)
		}
	}
	if got := s.ok("change_history", map[string]any{}); !strings.Contains(got, "w.txt") {
		t.Errorf("change_history: %q", got)
	}
}

// tools/list, read off the wire as a strict client reads it: every tool
// has a name of MCP's characters (and juju's ^[a-z0-9_]{1,64}$), unique;
// a title and a description; all four hints as booleans, never a
// read-only tool that says it is destructive; an input schema and an
// output schema of type object, each valid under its draft (strictSchemas)
// and the input's required arguments among its properties.
func TestToolsListIsWhatStrictClientsAccept(t *testing.T) {
	tools := wireToolsList(t)
	if len(tools) != 43 {
		t.Fatalf("%d tools: want the catalog's 43", len(tools))
	}
	name := regexp.MustCompile(`^[a-z0-9_]{1,64}$`)
	seen := map[string]bool{}
	for _, tool := range tools {
		n := tool.Name
		if !name.MatchString(n) || seen[n] {
			t.Errorf("%q: not a name of ^[a-z0-9_]{1,64}$, or listed twice", n)
		}
		seen[n] = true
		title, _ := json.Marshal(tool.Title)
		if tool.Title == nil {
			title = tool.Annotations["title"]
		}
		var s string
		if json.Unmarshal(title, &s) != nil || strings.TrimSpace(s) == "" || len(s) > 128 {
			t.Errorf("%s: title %s", n, title)
		}
		if strings.TrimSpace(tool.Description) == "" {
			t.Errorf("%s: no description", n)
		}
		hint := map[string]bool{}
		for _, h := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
			var b bool
			if err := json.Unmarshal(tool.Annotations[h], &b); err != nil {
				t.Errorf("%s: %s is %s, not a boolean", n, h, tool.Annotations[h])
			}
			hint[h] = b
		}
		if hint["readOnlyHint"] && (hint["destructiveHint"] || !hint["idempotentHint"]) {
			t.Errorf("%s: read-only, yet destructive or not idempotent: %v", n, hint)
		}
		var in, out struct {
			Type       any            `json:"type"`
			Properties map[string]any `json:"properties"`
			Required   []string       `json:"required"`
		}
		json.Unmarshal(tool.InputSchema, &in)
		json.Unmarshal(tool.OutputSchema, &out)
		if in.Type != "object" || out.Type != "object" {
			t.Errorf("%s: the schemas' types are %v and %v, not object", n, in.Type, out.Type)
		}
		for _, r := range in.Required {
			if _, ok := in.Properties[r]; !ok {
				t.Errorf("%s: requires %v, which its properties do not describe", n, r)
			}
		}
	}
	strictSchemas(t, tools)
}
