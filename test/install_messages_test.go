package test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/installed"
)

// A plugin whose juju_describe traps is refused at install, and by
// juju plugins build, in words for its owner and author: what failed and
// whose fault it is, not the advice a failing tool gives the model
// ("narrow the request", "the host replaced the instance"), no wasm stack
// trace, and not the error of juju's warm-up call made beside it.
func TestDescribeFailureSaysSoAtInstall(t *testing.T) {
	home := newHome(t)
	dir := authorFolder(t)
	cliOK(t, home, "plugins", "build", "--wasm", buildRaw(t, ""), dir)
	trap, err := os.ReadFile(buildRaw(t, "rawdescribetrap"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "plugin.wasm"), trap, 0o644)
	editJSON(t, filepath.Join(dir, "manifest.json"), func(m map[string]any) {
		m["wasm"].(map[string]any)["sha256"] = installed.Hash(trap)
	})
	check := func(what, out string) {
		t.Helper()
		if !strings.Contains(out, "the plugin's juju_describe failed: it failed: wasm error: unreachable") {
			t.Errorf("%s does not say juju_describe trapped:\n%s", what, out)
		}
		for _, stale := range []string{"narrow the request", "replaced the instance", "raw: no tool", "stack trace", "main.describe"} {
			if strings.Contains(out, stale) {
				t.Errorf("%s says %q:\n%s", what, stale, out)
			}
		}
	}
	out, errs, code := cli(t, home, nil, "plugins", "install", dir, "--yes")
	if code == 0 {
		t.Fatalf("installed a plugin whose juju_describe traps:\n%s", out)
	}
	check("install", errs)
	if !strings.Contains(errs, "the plugin is broken, not your setup: tell its author") {
		t.Errorf("install does not say whose fault it is:\n%s", errs)
	}
	_, errs, code = cli(t, home, nil, "plugins", "build", "--wasm", filepath.Join(dir, "plugin.wasm"), authorFolder(t))
	if code == 0 {
		t.Fatal("built a plugin whose juju_describe traps")
	}
	check("build", errs)
}

// A plugin whose juju_describe returns more than juju reads (5 MiB here:
// a file embedded in a tool's description by mistake) is refused, by
// install and by build, saying how large it was and what to do, before
// the description is decoded: 40 MB decoded cost an install 386 MB and
// 12 s, to be refused as a manifest too large or one that did not match.
func TestHugeDescriptionRefusedBeforeDecoding(t *testing.T) {
	home := newHome(t)
	dir := authorFolder(t)
	cliOK(t, home, "plugins", "build", "--wasm", buildRaw(t, ""), dir)
	huge, err := os.ReadFile(buildRaw(t, "rawhugedescribe"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "plugin.wasm"), huge, 0o644)
	editJSON(t, filepath.Join(dir, "manifest.json"), func(m map[string]any) {
		m["wasm"].(map[string]any)["sha256"] = installed.Hash(huge)
	})
	const said = "the plugin's juju_describe failed: it returned a description of 5.0 MiB, more than the 4 MiB juju reads (a manifest holds at most 1 MiB); describe the tools in fewer words"
	_, errs, code := cli(t, home, nil, "plugins", "install", dir, "--yes")
	if code == 0 || !strings.Contains(errs, said) || !strings.Contains(errs, "tell its author") {
		t.Errorf("install: exit %d\n%s", code, errs)
	}
	_, errs, code = cli(t, home, nil, "plugins", "build", "--wasm", filepath.Join(dir, "plugin.wasm"), authorFolder(t))
	if code == 0 || !strings.Contains(errs, said) {
		t.Errorf("build: exit %d\n%s", code, errs)
	}
}

// A refused install's error quotes what the plugin's author chose: an
// archive's entry names, a schema's pattern (through the regexp parser's
// message). Printed raw, an escape sequence there acted on the owner's
// terminal: OSC 52 set the clipboard, CSI 2K and a carriage return erased
// the refusal and wrote "installed OK" in its place. Now juju prints every
// character visibly, as juju plugins list prints a refused plugin's error.
func TestInstallRefusalActsNotOnTheTerminal(t *testing.T) {
	const evil = "\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b[2K\rinstalled OK"
	dir := t.TempDir()

	// An archive holding a link whose name carries the escapes.
	archive := filepath.Join(dir, "evil.tar.gz")
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "x" + evil, Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"})
	tw.Close()
	gz.Close()
	os.WriteFile(archive, buf.Bytes(), 0o644)

	// A folder whose manifest's schema has a pattern that does not compile.
	folder := filepath.Join(dir, "evil")
	os.MkdirAll(folder, 0o755)
	wasm := []byte("\x00asm\x01\x00\x00\x00")
	os.WriteFile(filepath.Join(folder, "plugin.wasm"), wasm, 0o644)
	m, _ := json.Marshal(map[string]any{"abi": 2, "name": "evil", "version": "1", "description": "d",
		"wasm": map[string]any{"file": "plugin.wasm", "sha256": installed.Hash(wasm)}, "capabilities": []string{},
		"tools": []any{map[string]any{"name": "t", "description": "d", "tier": "X",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{
				"a": map[string]any{"type": "string", "pattern": "(" + evil}}}}}})
	os.WriteFile(filepath.Join(folder, "manifest.json"), m, 0o644)

	for _, src := range []string{archive, folder} {
		_, errs, code := cli(t, newHome(t), nil, "plugins", "install", src, "--yes")
		if code == 0 {
			t.Fatalf("installed %s", src)
		}
		if i := strings.IndexFunc(strings.TrimSuffix(errs, "\n"), func(r rune) bool { return r < 0x20 || r == 0x7f }); i >= 0 {
			t.Errorf("install %s printed control character %q to the terminal:\n%q", filepath.Base(src), errs[i], errs)
		}
		if !strings.Contains(errs, `\x1b]52;c;`) {
			t.Errorf("install %s does not show the escape it refused:\n%s", filepath.Base(src), errs)
		}
	}
}
