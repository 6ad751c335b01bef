//go:build unix

package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/lspconfig"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// A message may quote a file of a system or toolchain folder (the module
// cache here), but not a secret there: a .env in a folder a go.mod
// replace or a toolchain points at is a secret wherever it lies, and
// docs/SECURITY.md withholds a message naming a secret file whole.
func TestSecretInASystemFolderWithheld(t *testing.T) {
	tmp := t.TempDir()
	modcache := filepath.Join(tmp, "modcache")
	secret := filepath.Join(modcache, "example.com", "x@v1.0.0", ".env")
	os.MkdirAll(filepath.Dir(secret), 0o755)
	if err := os.WriteFile(secret, []byte("[default]\naws_secret_access_key = claims-outside-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOMODCACHE", modcache) // read by New: a system folder
	root := t.TempDir()
	for p, c := range map[string]string{"a.go": "package a\nvar x = y\n", ".env": "DB_PASSWORD=claims-quoted-secret\n", "x/a b/c/h.h": "int claims;\n"} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(c), 0o644)
	}
	pol, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pol.Close() })
	exe, _ := os.Executable()
	m := New(pol, Options{Servers: []lspconfig.Server{{Name: "claims", Command: []string{exe, claimsFakeArg, "quote", secret}, Languages: []string{"go"}}}})
	t.Cleanup(func() { m.Close(context.Background()) })
	res, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDiagnostics, Path: "a.go"})
	if e != nil {
		t.Fatal(e)
	}
	b, _ := json.Marshal(res)
	if strings.Contains(string(b), "claims-outside-secret") {
		t.Fatalf("a message quoting a secret of the module cache was kept: %s", b)
	}
	// The message quoting it (the fake's second) is withheld, naming it.
	if len(res.Diagnostics) < 2 || !strings.Contains(res.Diagnostics[1].Message, "juju withheld") {
		t.Fatalf("diagnostics: %+v", res.Diagnostics)
	}
	// A system file that is no secret is still quoted.
	if !strings.Contains(string(b), "print.go:12:1") {
		t.Errorf("the message quoting GOROOT's print.go was withheld: %s", b)
	}
}

// A system folder kept inside a folder the secret list names (a
// GOMODCACHE in ~/.gnupg) holds secrets whatever their own names: the
// globs are matched from the file system's top too, not only from the
// system folder, from which notes.txt matched none and was quoted.
func TestSystemFolderInsideASecretFolderWithheld(t *testing.T) {
	modcache := filepath.Join(t.TempDir(), ".gnupg", "modcache")
	res := diagnosticsQuotingModcache(t, modcache, nil)
	if len(res.Diagnostics) < 2 || !strings.Contains(res.Diagnostics[1].Message, "juju withheld") {
		b, _ := json.Marshal(res)
		t.Fatalf("a message quoting a file of a module cache inside .gnupg was kept: %s", b)
	}
}

// A secret glob with a slash is a path from a root: the owner's tmp/**
// names a project's tmp folder, not every file below the file system's
// /tmp, so a message quoting a module cache there is kept.
func TestSystemFolderNamedByARootPathGlobKept(t *testing.T) {
	tmp := t.TempDir()
	top, _, _ := strings.Cut(strings.TrimPrefix(filepath.ToSlash(tmp), "/"), "/")
	modcache := filepath.Join(tmp, "modcache")
	res := diagnosticsQuotingModcache(t, modcache, []string{top + "/**"})
	if len(res.Diagnostics) < 2 || strings.Contains(res.Diagnostics[1].Message, "juju withheld") ||
		!strings.Contains(res.Diagnostics[1].Message, modcache) {
		b, _ := json.Marshal(res)
		t.Fatalf("a message quoting a module cache below /%s was withheld by the root path glob %s/**: %s", top, top, b)
	}
}

// diagnosticsQuotingModcache makes modcache the Go module cache (a system
// folder) and asks for the diagnostics of a server whose second message
// quotes a file of it, under a policy with the owner's secret globs.
func diagnosticsQuotingModcache(t *testing.T, modcache string, secrets []string) *abi.LSPResult {
	t.Helper()
	quoted := filepath.Join(modcache, "example.com", "x@v1.0.0", "notes.txt")
	os.MkdirAll(filepath.Dir(quoted), 0o755)
	if err := os.WriteFile(quoted, []byte("[default]\naws_secret_access_key = claims-outside-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOMODCACHE", modcache) // read by New: a system folder
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\nvar x = y\n"), 0o644)
	pol, err := policy.New(policy.Config{Roots: []string{root}, Secrets: secrets})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pol.Close() })
	exe, _ := os.Executable()
	m := New(pol, Options{Servers: []lspconfig.Server{{Name: "claims", Command: []string{exe, claimsFakeArg, "quote", quoted}, Languages: []string{"go"}}}})
	t.Cleanup(func() { m.Close(context.Background()) })
	res, e := ask(t, m, abi.LSPRequest{Op: abi.LSPDiagnostics, Path: "a.go"})
	if e != nil {
		t.Fatal(e)
	}
	return res
}
