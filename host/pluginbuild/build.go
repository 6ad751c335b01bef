package pluginbuild

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/jujutools/juju/internal/atomicfile"
	"github.com/jujutools/juju/internal/manifest"
)

// WasmFile is the name of a built plugin's module in its folder.
const WasmFile = "plugin.wasm"

// Build compiles the plugin whose source (main package and manifest.json)
// is in srcDir and writes outDir/<name>/plugin.wasm and manifest.json, the
// source manifest stamped with the wasm's sha256. It returns that manifest.
func Build(ctx context.Context, srcDir, outDir string) (*manifest.Manifest, error) {
	src, err := ReadSource(srcDir)
	if err != nil {
		return nil, err
	}
	m, err := manifest.DecodeSource(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(srcDir, manifest.FileName), err)
	}
	wasm, err := Compile(ctx, srcDir)
	if err != nil {
		return nil, err
	}
	return Stamp(outDir, m, wasm)
}

// ReadSource reads the source manifest in srcDir.
func ReadSource(srcDir string) ([]byte, error) {
	return os.ReadFile(filepath.Join(srcDir, manifest.FileName))
}

// Compile builds the main package in srcDir for wasip1 and returns the wasm.
// The go command runs in the root of the module that holds srcDir, with
// -buildmode=c-shared -trimpath and stripped symbols. The module's data
// segments are then joined (packData).
func Compile(ctx context.Context, srcDir string) ([]byte, error) {
	wasm, err := compileRaw(ctx, srcDir)
	if err != nil {
		return nil, err
	}
	return packData(wasm), nil
}

// compileRaw is Compile without packData: the go command's output.
func compileRaw(ctx context.Context, srcDir string) ([]byte, error) {
	abs, err := filepath.Abs(srcDir)
	if err != nil {
		return nil, err
	}
	modRoot, err := moduleRoot(abs)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(modRoot, abs)
	if err != nil {
		return nil, err
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("pluginbuild: the go command is needed to build plugins: %w", err)
	}
	tmp, err := os.MkdirTemp("", "juju-plugin-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, WasmFile)
	cmd := exec.CommandContext(ctx, goBin, "build",
		"-buildmode=c-shared", "-trimpath", "-ldflags=-s -w",
		"-o", out, "./"+filepath.ToSlash(rel))
	cmd.Dir = modRoot
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("pluginbuild: go build %s: %w\n%s", srcDir, err, strings.TrimSpace(stderr.String()))
	}
	return os.ReadFile(out)
}

// moduleRoot returns the nearest folder at or above dir holding a go.mod.
func moduleRoot(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("pluginbuild: %s is not inside a Go module", dir)
		}
		d = parent
	}
}

// StampShared writes the folder outDir/<name> of a core plugin that runs
// another plugin's module (src's wasm.module names it): a copy of src pinned
// to that module's wasm, as Stamp returned owner's manifest, and no wasm of
// its own; wasm files an earlier build left in the folder are removed. It
// returns the stamped manifest.
func StampShared(outDir string, src, owner *manifest.Manifest) (*manifest.Manifest, error) {
	if src.Wasm.Module == "" || src.Wasm.Module != owner.Name || owner.Wasm.Module != "" {
		return nil, fmt.Errorf("pluginbuild: %s runs the module of %q, not of %s", src.Name, src.Wasm.Module, owner.Name)
	}
	m := *src
	m.Wasm.File, m.Wasm.SHA256 = owner.Wasm.File, owner.Wasm.SHA256
	data, err := Format(&m)
	if err != nil {
		return nil, err
	}
	stamped, err := manifest.DecodeEmbedded(data)
	if err == nil {
		err = stamped.Validate()
	}
	if err != nil {
		return nil, fmt.Errorf("pluginbuild: stamped manifest of %s: %w", m.Name, err)
	}
	dir := filepath.Join(outDir, m.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	stale, err := filepath.Glob(filepath.Join(dir, "*.wasm"))
	if err != nil {
		return nil, err
	}
	for _, f := range stale {
		if err := os.Remove(f); err != nil {
			return nil, err
		}
	}
	if err := atomicfile.Write(filepath.Join(dir, manifest.FileName), data, 0o644, atomicfile.Options{}); err != nil {
		return nil, err
	}
	return stamped, nil
}

// Stamp writes the plugin folder outDir/<name>: the wasm under the name the
// manifest gives, and a copy of src with the wasm's sha256, validated as the
// host will validate it. It returns the stamped manifest.
func Stamp(outDir string, src *manifest.Manifest, wasm []byte) (*manifest.Manifest, error) {
	m := *src
	sum := sha256.Sum256(wasm)
	m.Wasm.SHA256 = hex.EncodeToString(sum[:])
	data, err := Format(&m)
	if err != nil {
		return nil, err
	}
	stamped, err := manifest.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("pluginbuild: stamped manifest of %s: %w", m.Name, err)
	}
	dir := filepath.Join(outDir, m.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(dir, m.Wasm.File), wasm, 0o644, atomicfile.Options{}); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(dir, manifest.FileName), data, 0o644, atomicfile.Options{}); err != nil {
		return nil, err
	}
	return stamped, nil
}
