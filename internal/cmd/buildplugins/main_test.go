package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
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
	out := t.TempDir()
	var stderr bytes.Buffer
	// The cache is the one host/pluginbuild's tests use: the same
	// module compiles once, even under -race.
	cache := filepath.Join(os.TempDir(), "juju-test-wazero-cache")
	if err := run(context.Background(), options{out: out, check: true, cache: cache, sources: []string{src}}, &stderr); err != nil {
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
