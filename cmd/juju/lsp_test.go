package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/lspconfig"
)

// TestLSPCommands: add, list and remove through the command line; the
// registrations land in the config directory; doctor lists them and
// whether each command exists.
func TestLSPCommands(t *testing.T) {
	dirs := jujuHome(t)
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "fake-ls"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	cli := func(args ...string) (string, string, int) {
		var out, errw bytes.Buffer
		code := run(t.Context(), args, strings.NewReader(""), &out, &errw)
		return out.String(), errw.String(), code
	}
	if out, errs, code := cli("lsp", "add", "fake", "--command", `fake-ls --stdio --name "a b"`, "--languages", "go,python", "--root-markers", "go.mod"); code != 0 {
		t.Fatalf("add: %d %s %s", code, out, errs)
	}
	if out, errs, code := cli("lsp", "add", "ghost", "--command", "no-such-ls", "--languages", "rust"); code != 0 ||
		!strings.Contains(errs, "warning: no-such-ls is not on PATH") || strings.Contains(out, "warning") {
		t.Fatalf("add ghost: %d, stdout %q, stderr %q (the warning goes to stderr)", code, out, errs)
	}
	if _, errs, code := cli("lsp", "add", "bad", "--command", "x", "--languages", "cobol"); code == 0 || !strings.Contains(errs, "unknown language") {
		t.Fatalf("unknown language: %d %s", code, errs)
	}
	if _, errs, code := cli("lsp", "add", "x", "--languages", "go"); code != exitUsage {
		t.Fatalf("missing --command: %d %s", code, errs)
	}
	servers, err := lspconfig.Load(dirs.Config)
	if err != nil || len(servers) != 2 || strings.Join(servers[0].Command, "|") != "fake-ls|--stdio|--name|a b" {
		t.Fatalf("saved: %+v %v", servers, err)
	}
	out, _, code := cli("lsp", "list", "--json")
	var entries []lspEntry
	if code != 0 || json.Unmarshal([]byte(out), &entries) != nil || len(entries) != 2 || !entries[0].Found || entries[1].Found {
		t.Fatalf("list: %d %s", code, out)
	}
	// --init-options is a JSON object, and a script reads it as one, not
	// as a string holding JSON.
	out, errs, code := cli("lsp", "add", "opts", "--command", "fake-ls", "--languages", "lua", "--init-options", `{"verbose": true}`, "--json")
	var added struct{ InitOptions map[string]bool }
	if code != 0 || json.Unmarshal([]byte(out), &added) != nil || !added.InitOptions["verbose"] {
		t.Fatalf("add --init-options --json: %d %s %s", code, out, errs)
	}
	out, _, _ = cli("lsp", "list", "--json")
	var listed []struct {
		Name        string
		InitOptions map[string]bool
	}
	if err := json.Unmarshal([]byte(out), &listed); err != nil || len(listed) != 3 || !listed[2].InitOptions["verbose"] {
		t.Fatalf("list --json with initOptions (%v):\n%s", err, out)
	}
	// Every entry has the fields CLI.md lists, rootMarkers as an array
	// even when none was given (ghost's), so a script can iterate it.
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil || len(raw) != 3 {
		t.Fatalf("list --json (%v):\n%s", err, out)
	}
	for _, e := range raw {
		for _, k := range []string{"name", "command", "languages", "rootMarkers", "found"} {
			if v, ok := e[k]; !ok || string(v) == "null" {
				t.Errorf("lsp list --json: entry %s has no %q:\n%s", e["name"], k, out)
			}
		}
	}
	if _, errs, code := cli("lsp", "remove", "opts"); code != 0 {
		t.Fatalf("remove opts: %s", errs)
	}
	out, _, _ = cli("lsp", "list")
	if !strings.Contains(out, "NOT FOUND") || !strings.Contains(out, "fake-ls --stdio") {
		t.Fatalf("list table:\n%s", out)
	}
	r, _ := doctorJSON(t, &doctorOptions{}, doctorEnv{dirs: dirs, open: notBuilt})
	if len(r.LSP.Servers) != 2 || r.LSP.Servers[1].Name != "ghost" || r.LSP.Servers[1].Found {
		t.Fatalf("doctor: %+v", r.LSP)
	}
	if _, errs, code := cli("lsp", "remove", "ghost"); code != 0 {
		t.Fatalf("remove: %s", errs)
	}
	if _, errs, code := cli("lsp", "remove", "ghost"); code == 0 || !strings.Contains(errs, "no such") {
		t.Fatalf("second remove: %d %s", code, errs)
	}
}
