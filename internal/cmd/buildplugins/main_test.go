package main

import (
	"bytes"
	"context"
	"encoding/json"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/manifest"
)

func TestParse(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-out", "x"},
		{"plugins/core"},
		{"-update", "-check", "plugins/core"},
		{"-bogus", "plugins/core"},
		{"-check", "-embed", "x.go", "plugins/core"},
	} {
		if _, err := parse(args, &bytes.Buffer{}); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
	o, err := parse([]string{"-check", "-out", "dir", "a", "b"}, &bytes.Buffer{})
	if err != nil || !o.check || o.out != "dir" || len(o.sources) != 2 {
		t.Fatalf("parse: %+v %v", o, err)
	}
}

func TestBuildAndCheck(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "..", "..", "..", "plugins", "testplugins", "echo")
	pkg := t.TempDir()
	if err := os.WriteFile(filepath.Join(pkg, "core.go"), []byte("// Package core holds plugins.\npackage core\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(pkg, "wasm")
	embed := filepath.Join(pkg, "wasmfiles.go")
	var stderr bytes.Buffer
	// The cache is the one host/pluginbuild's tests use: the same
	// module compiles once, even under -race.
	cache := filepath.Join(os.TempDir(), "juju-test-wazero-cache")
	if err := run(context.Background(), options{out: out, check: true, cache: cache, embed: embed, sources: []string{src}}, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "building…") || !strings.Contains(stderr.String(), "test-echo compiled in") || !strings.Contains(stderr.String(), "1 tool") {
		t.Errorf("progress lines: %s", stderr.String())
	}
	data, err := os.ReadFile(filepath.Join(out, "test-echo", manifest.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := manifest.Decode(data); err != nil {
		t.Fatalf("stamped manifest: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "test-echo", "plugin.wasm")); err != nil {
		t.Fatal(err)
	}
	// -embed wrote a Go file of the folder's package that embeds the wasm
	// by its path from there.
	gen, err := os.ReadFile(embed)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), embed, gen, parser.ParseComments)
	if err != nil {
		t.Fatalf("generated source: %v\n%s", err, gen)
	}
	if f.Name.Name != "core" {
		t.Errorf("package %s", f.Name.Name)
	}
	for _, want := range []string{"//go:embed \"wasm/test-echo/plugin.wasm\"\nvar wasm0 string", `"wasm/test-echo/plugin.wasm": wasm0,`, "DO NOT EDIT",
		"var manifest0 = manifest.Manifest{", `Name:        "test-echo",`, `"wasm/test-echo": &manifest0,`, `json.RawMessage(`} {
		if !strings.Contains(string(gen), want) {
			t.Errorf("generated source lacks %q:\n%s", want, gen)
		}
	}
}

// -embed refuses an -out folder that go:embed could not reach from the
// file's package, and writes nothing then.
func TestEmbedOutsideThePackage(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "wasm")
	plugin := filepath.Join(out, "p")
	if err := os.MkdirAll(plugin, 0o755); err != nil {
		t.Fatal(err)
	}
	m := `{"abi":2,"name":"p","version":"0.1.0","description":"p","wasm":{"file":"plugin.wasm","sha256":"` + strings.Repeat("0", 64) + `"},"tools":[{"name":"p_tool","title":"P","description":"Does p.","tier":"R","annotations":{"readOnlyHint":true},"inputSchema":{"type":"object","properties":{}}}]}`
	if err := os.WriteFile(filepath.Join(plugin, manifest.FileName), []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "pkg", "wasmfiles.go")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeEmbed(file, out); err == nil || !strings.Contains(err.Error(), "not inside") {
		t.Fatalf("writeEmbed: %v", err)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("a file was written: %v", err)
	}
	// From the folder above, the same plugin is reachable, once a Go file
	// there names the package.
	file = filepath.Join(dir, "wasmfiles.go")
	if err := writeEmbed(file, out); err == nil || !strings.Contains(err.Error(), "names the package") {
		t.Fatalf("writeEmbed without a package: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeEmbed(file, out); err != nil {
		t.Fatal(err)
	}
	if gen, _ := os.ReadFile(file); !strings.Contains(string(gen), `//go:embed "wasm/p/plugin.wasm"`) || !strings.Contains(string(gen), "package x") {
		t.Errorf("generated:\n%s", gen)
	}
}

// -prune removes the plugin folders no source built, and nothing else.
func TestPrune(t *testing.T) {
	out := t.TempDir()
	for _, d := range []string{"kept", "stale", "notaplugin"} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"kept", "stale"} {
		if err := os.WriteFile(filepath.Join(out, d, manifest.FileName), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var log bytes.Buffer
	if err := prune(out, map[string]bool{"kept": true}, &log); err != nil {
		t.Fatal(err)
	}
	for d, want := range map[string]bool{"kept": true, "stale": false, "notaplugin": true} {
		if _, err := os.Stat(filepath.Join(out, d)); (err == nil) != want {
			t.Errorf("%s: exists = %v, want %v", d, err == nil, want)
		}
	}
	if !strings.Contains(log.String(), "stale: removed") {
		t.Errorf("prune said %q", log.String())
	}
}

// A module that serves two plugins (as core serves core-exec): the source
// naming the module is stamped from it, whatever the order given, with the
// tools the module describes under its name, the same sha256 and no wasm
// of its own; -embed embeds the module once. The module without the other
// plugin's source, or that source without the module's, is an error.
func TestSharedModule(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	testplugins := filepath.Join(filepath.Dir(file), "..", "..", "..", "plugins", "testplugins")
	owner, sharer := filepath.Join(testplugins, "shared"), filepath.Join(testplugins, "sharedreader")
	pkg := t.TempDir()
	if err := os.WriteFile(filepath.Join(pkg, "core.go"), []byte("package core\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(pkg, "wasm")
	cache := filepath.Join(os.TempDir(), "juju-test-wazero-cache")
	// A stale wasm a former build left where the sharer's folder now is.
	if err := os.MkdirAll(filepath.Join(out, "test-shared-reader"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "test-shared-reader", "plugin.wasm"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	embed := filepath.Join(pkg, "wasmfiles.go")
	if err := run(context.Background(), options{out: out, check: true, cache: cache, embed: embed, sources: []string{sharer, owner}}, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "test-shared-reader runs the module of test-shared, 1 tool") {
		t.Errorf("progress lines: %s", stderr.String())
	}
	read := func(name string) *manifest.Manifest {
		data, err := os.ReadFile(filepath.Join(out, name, manifest.FileName))
		if err != nil {
			t.Fatal(err)
		}
		m, err := manifest.DecodeEmbedded(data)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	own, reader := read("test-shared"), read("test-shared-reader")
	if reader.Wasm.Module != "test-shared" || reader.Wasm.SHA256 != own.Wasm.SHA256 || reader.Wasm.File != own.Wasm.File {
		t.Errorf("the sharer's wasm: %+v; the module's: %+v", reader.Wasm, own.Wasm)
	}
	if len(reader.Tools) != 1 || reader.Tools[0].Name != "test_shared_read_granted" || len(own.Tools) != 1 || own.Tools[0].Name != "test_shared_read" {
		t.Errorf("tools: %v / %v", own.Tools, reader.Tools)
	}
	if wasms, _ := filepath.Glob(filepath.Join(out, "test-shared-reader", "*.wasm")); len(wasms) != 0 {
		t.Errorf("the sharer's folder holds %v", wasms)
	}
	gen, err := os.ReadFile(embed)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(gen), "//go:embed") != 1 || !strings.Contains(string(gen), `"wasm/test-shared/plugin.wasm"`) {
		t.Errorf("embedded:\n%s", gen)
	}

	stderr.Reset()
	err = run(context.Background(), options{check: true, cache: cache, sources: []string{owner}}, &stderr)
	if err == nil || !strings.Contains(err.Error(), "also serves tools of test-shared-reader") {
		t.Errorf("the module alone: %v", err)
	}
	stderr.Reset()
	err = run(context.Background(), options{out: t.TempDir(), sources: []string{sharer}}, &stderr)
	if err == nil || !strings.Contains(err.Error(), "which this run did not build") {
		t.Errorf("the sharer alone: %v", err)
	}
}

// goLiteral writes what a manifest is made of and refuses what it cannot
// write back equal.
func TestGoLiteral(t *testing.T) {
	type inner struct {
		N    int
		Raw  json.RawMessage
		Tags []string
	}
	type outer struct {
		S   string
		B   bool
		P   *inner
		L   []inner
		Nil []string
	}
	var b bytes.Buffer
	imports := map[string]bool{}
	v := outer{S: "a\"b\n", B: true, P: &inner{N: -3, Raw: json.RawMessage(`{"x":"\u00e9"}`)}, L: []inner{{Tags: []string{}}}}
	if err := goLiteral(&b, reflect.ValueOf(v), imports); err != nil {
		t.Fatal(err)
	}
	want := "main.outer{\nS: \"a\\\"b\\n\",\nB: true,\nP: &main.inner{\nN: -3,\nRaw: json.RawMessage(\"{\\\"x\\\":\\\"\\\\u00e9\\\"}\"),\n},\nL: []main.inner{\nmain.inner{\nTags: []string{\n},\n},\n},\n}"
	// A test binary's types are in the package's import path, not main.
	want = strings.ReplaceAll(want, "main.", "buildplugins.")
	if b.String() != want {
		t.Errorf("literal:\n%q\nwant:\n%q", b.String(), want)
	}
	if !imports["encoding/json"] {
		t.Errorf("imports %v lack encoding/json", imports)
	}
	for _, bad := range []any{map[string]int{"a": 1}, struct{ x int }{1}, 1.5} {
		if err := goLiteral(&bytes.Buffer{}, reflect.ValueOf(bad), map[string]bool{}); err == nil {
			t.Errorf("%T written", bad)
		}
	}
}
