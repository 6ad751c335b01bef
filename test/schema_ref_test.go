package test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/installed"
)

// stdinRef is an input schema property that refers to juju's stdin.
var stdinRef = map[string]any{"$ref": "file:///dev/stdin"}

// rawWithRef is the raw test plugin, built, its echo tool's "text"
// argument made a $ref to /dev/stdin.
func rawWithRef(t *testing.T) string {
	t.Helper()
	dir := authorFolder(t)
	cliOK(t, t.TempDir(), "plugins", "build", "--wasm", buildRaw(t, ""), dir)
	editJSON(t, filepath.Join(dir, "manifest.json"), func(m map[string]any) {
		tool := m["tools"].([]any)[0].(map[string]any)
		tool["inputSchema"].(map[string]any)["properties"].(map[string]any)["text"] = stdinRef
	})
	return dir
}

// A plugin's schema that refers to a file (here /dev/stdin, which would
// wait for the owner's input while holding the lifecycle lock) is refused
// at install, at once, saying why; nothing is read from stdin.
func TestInstallRefusesExternalSchemaRef(t *testing.T) {
	home := newHome(t)
	dir := rawWithRef(t)
	stdinR, stdinW, err := os.Pipe() // open, never written: a read would wait forever
	if err != nil {
		t.Fatal(err)
	}
	defer stdinW.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, jujuBin, "plugins", "install", dir, "--yes")
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	cmd.Stdin = stdinR
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	stdinR.Close()
	if ctx.Err() != nil {
		t.Fatalf("install waited on the schema's $ref (killed after 60 s):\n%s", out.String())
	}
	if err == nil {
		t.Fatalf("install accepted a schema referring to /dev/stdin:\n%s", out.String())
	}
	if !strings.Contains(out.String(), `refers outside itself: it names "file:///dev/stdin"`) {
		t.Fatalf("the refusal does not say why:\n%s", out.String())
	}
	if _, err := os.Stat(filepath.Join(home, "data", "plugins", "test-raw")); !os.IsNotExist(err) {
		t.Fatalf("the refused plugin was installed: %v", err)
	}
}

// A plugin whose manifest refers to /dev/stdin, put in place without
// juju plugins install (an older juju, a hand-made folder), is refused
// when juju starts: juju does not read its client's messages from stdin as
// a schema, it answers them, and serves everything else.
func TestStartRefusesExternalSchemaRef(t *testing.T) {
	home := newHome(t)
	dir := rawWithRef(t)
	refusedAtStart(t, home, dir, "refers outside itself")
}

// A plugin whose input schema puts an x-mcp-header annotation on an object,
// put in place by hand, is refused when juju starts, saying why: mcp-go
// refuses such a tool by panicking when it is registered, which took juju
// down at every start while the plugin stayed installed.
func TestStartRefusesBadHeaderAnnotation(t *testing.T) {
	home := newHome(t)
	dir := authorFolder(t)
	cliOK(t, t.TempDir(), "plugins", "build", "--wasm", buildRaw(t, ""), dir)
	editJSON(t, filepath.Join(dir, "manifest.json"), func(m map[string]any) {
		tool := m["tools"].([]any)[0].(map[string]any)
		tool["inputSchema"].(map[string]any)["properties"].(map[string]any)["text"] = map[string]any{"type": "object", "x-mcp-header": "X-Text"}
	})
	refusedAtStart(t, home, dir, "x-mcp-header can only be applied to primitive types")
}

// refusedAtStart puts the plugin folder dir in place by hand as test-raw,
// pinned as an install would, starts juju on home, and checks that juju
// serves its own tools without the plugin's and that juju plugins list
// says why it refused it (the error holds want).
func refusedAtStart(t *testing.T, home, dir, want string) {
	t.Helper()
	dst := filepath.Join(home, "data", "plugins", "test-raw")
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(copyFolder(t, dir), dst); err != nil {
		t.Fatal(err)
	}
	mdata, err := os.ReadFile(filepath.Join(dst, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pin struct{ Wasm struct{ SHA256 string } }
	json.Unmarshal(mdata, &pin)
	if err := installed.WriteGrants(dst, installed.Grants{SHA256: pin.Wasm.SHA256, ManifestSHA256: installed.Hash(mdata)}); err != nil {
		t.Fatal(err)
	}

	s := startHome(t, home, workspace(t, map[string]string{"a.txt": "a\n"}))
	if names := s.toolNames(); slices.Contains(names, "test_raw_echo") || !slices.Contains(names, "list_directory") {
		t.Fatalf("tools/list: %v", names)
	}
	s.ok("list_directory", map[string]any{"path": "."})
	if p := findListed(t, home, "test-raw"); !strings.Contains(p.Error, want) {
		t.Fatalf("plugins list does not say why the plugin is refused: %+v", p)
	}
}

// rawWithSchema is the raw test plugin built with tag, whose juju_describe
// gives its echo tool another input schema, with the manifest that
// describes it as a juju that did not check that schema wrote it (edit
// makes the plain build's schema the tag's).
func rawWithSchema(t *testing.T, tag string, edit func(schema map[string]any)) string {
	t.Helper()
	dir := authorFolder(t)
	cliOK(t, t.TempDir(), "plugins", "build", "--wasm", buildRaw(t, ""), dir)
	wasm, err := os.ReadFile(buildRaw(t, tag))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plugin.wasm"), wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	editJSON(t, filepath.Join(dir, "manifest.json"), func(m map[string]any) {
		m["wasm"].(map[string]any)["sha256"] = installed.Hash(wasm)
		edit(m["tools"].([]any)[0].(map[string]any)["inputSchema"].(map[string]any))
	})
	return dir
}

// rawWithDialect is the raw test plugin whose echo tool's input schema
// declares JSON Schema draft-07.
func rawWithDialect(t *testing.T) string {
	return rawWithSchema(t, "rawdialect", func(s map[string]any) {
		s["$schema"] = "http://json-schema.org/draft-07/schema#"
	})
}

// rawWithTopAnyOf is the raw test plugin whose echo tool's input schema
// has anyOf at its top.
func rawWithTopAnyOf(t *testing.T) string {
	return rawWithSchema(t, "rawtopanyof", func(s map[string]any) {
		delete(s, "required")
		s["anyOf"] = []any{map[string]any{"required": []any{"text"}}}
	})
}

// rawWithBadArgument is the raw test plugin whose echo tool has an
// argument named filter[id].
func rawWithBadArgument(t *testing.T) string {
	return rawWithSchema(t, "rawbadarg", func(s map[string]any) {
		s["properties"].(map[string]any)["filter[id]"] = map[string]any{"type": "string"}
	})
}

// A plugin whose tool schema declares another dialect than MCP's JSON
// Schema 2020-12, or whose input schema has anyOf, oneOf or allOf at its
// top or an argument named otherwise than ^[a-zA-Z0-9_.-]{1,64}$, is
// refused at install, saying why: juju served it in every
// tools/list, and clients send each tool's input schema to the model's
// API, which refuses every request of the session for one such tool
// (claude-code#586, #5319, appstore-connect-mcp#2), juju's own tools'
// calls included.
func TestInstallRefusesSchemasAModelsAPIRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		dir  func(*testing.T) string
		want []string
	}{
		"draft-07":  {rawWithDialect, []string{`$schema names "http://json-schema.org/draft-07/schema#"`, "JSON Schema 2020-12"}},
		"top anyOf": {rawWithTopAnyOf, []string{"anyOf at its top"}},
		"argument":  {rawWithBadArgument, []string{`the argument "filter[id]" must be named as ^[a-zA-Z0-9_.-]{1,64}$`}},
	} {
		t.Run(name, func(t *testing.T) {
			home := newHome(t)
			stdout, stderr, code := cli(t, home, nil, "plugins", "install", c.dir(t), "--yes")
			out := stdout + stderr
			if code == 0 {
				t.Fatalf("install accepted the schema:\n%s", out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Fatalf("the refusal does not say why (%s):\n%s", w, out)
				}
			}
			if _, err := os.Stat(filepath.Join(home, "data", "plugins", "test-raw")); !os.IsNotExist(err) {
				t.Fatalf("the refused plugin was installed: %v", err)
			}
		})
	}
}

// The same plugins put in place by an older juju are refused when juju
// starts, and juju serves the rest without their schemas.
func TestStartRefusesSchemasAModelsAPIRefuses(t *testing.T) {
	refusedAtStart(t, newHome(t), rawWithDialect(t), "JSON Schema 2020-12")
	refusedAtStart(t, newHome(t), rawWithTopAnyOf(t), "anyOf at its top")
	refusedAtStart(t, newHome(t), rawWithBadArgument(t), "must be named as")
}
