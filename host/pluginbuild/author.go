package pluginbuild

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/internal/atomicfile"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// BuildFolder builds a plugin the way an author does with `juju plugins
// build`: it compiles the main package in srcDir (inside the author's own
// module), runs the plugin's describe export, and writes outDir/manifest.json
// (srcDir's manifest with the tools and discoverers the plugin describes and
// the wasm's sha256) and outDir/<wasm file>. outDir may be srcDir: the
// manifest there is then the installable one, and a later build rewrites it.
// The author writes only the plugin's identity in manifest.json: abi, name,
// version, description, wasm.file and capabilities. cacheDir keeps wazero's
// compilation cache (in memory when empty).
func BuildFolder(ctx context.Context, srcDir, outDir, cacheDir string) (*manifest.Manifest, error) {
	src, err := readAuthorSource(srcDir)
	if err != nil {
		return nil, err
	}
	wasm, err := Compile(ctx, srcDir)
	if err != nil {
		return nil, err
	}
	return finish(ctx, src, wasm, outDir, cacheDir)
}

// BuildWasm is BuildFolder for a wasm built some other way (AssemblyScript,
// Rust, TinyGo, a Go module without juju's SDK): it reads the module in
// wasmFile instead of compiling, checks that juju can link it and that it
// exports juju_describe, runs that export, and writes outDir/manifest.json
// (srcDir's manifest with the tools and discoverers the plugin describes
// and the wasm's sha256) and a copy of the wasm as outDir/<wasm file>.
func BuildWasm(ctx context.Context, srcDir, wasmFile, outDir, cacheDir string) (*manifest.Manifest, error) {
	src, err := readAuthorSource(srcDir)
	if err != nil {
		return nil, err
	}
	wasm, err := os.ReadFile(wasmFile)
	if err != nil {
		return nil, fmt.Errorf("pluginbuild: %w", err)
	}
	return finish(ctx, src, wasm, outDir, cacheDir)
}

func readAuthorSource(srcDir string) ([]byte, error) {
	src, err := ReadSource(srcDir)
	if err != nil {
		return nil, fmt.Errorf("pluginbuild: %w (write one with the plugin's name, version, description, wasm.file and capabilities; see docs/PLUGINS.md)", err)
	}
	// The part the author writes is checked before the seconds of
	// compiling, and named as theirs: the tools and the hash are the
	// build's to write (a placeholder discoverer stands for them, since a
	// manifest must have one or a tool).
	m, err := decodeLoose(src)
	if err == nil {
		m.Tools, m.Wasm.SHA256 = nil, ""
		m.Discoverers = []abi.DiscovererSpec{{Name: "placeholder", Files: []string{"placeholder"}}}
		var id []byte
		if id, err = Format(m); err == nil {
			_, err = manifest.DecodeSource(id)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("pluginbuild: %s: %w (you write its name, version, description, wasm.file and capabilities; see docs/PLUGINS.md)",
			filepath.Join(srcDir, manifest.FileName), err)
	}
	return src, nil
}

// finish describes wasm and writes the plugin folder outDir.
func finish(ctx context.Context, src, wasm []byte, outDir, cacheDir string) (*manifest.Manifest, error) {
	d, err := DescribeCached(ctx, cacheDir, wasm)
	if err != nil {
		return nil, err
	}
	if others := slices.Sorted(maps.Keys(d.Plugins)); len(others) > 0 {
		return nil, fmt.Errorf("%w: it registers tools of other plugins (%s, through ToolOptions.Plugin), which only juju's core module may serve; leave Plugin empty",
			ErrModule, strings.Join(others, ", "))
	}
	gen, err := Generate(src, d)
	if err != nil {
		return nil, err
	}
	m, err := manifest.DecodeSource(gen)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(wasm)
	m.Wasm.SHA256 = hex.EncodeToString(sum[:])
	// The ABI is the module's, read from its imports, as the tools are:
	// one the author wrote otherwise would fail every call.
	if m.ABI, err = plugin.ModuleABI(wasm); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrModule, err)
	}
	data, err := Format(m)
	if err != nil {
		return nil, err
	}
	stamped, err := manifest.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("pluginbuild: the built manifest of %s: %w", m.Name, err)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(outDir, m.Wasm.File), wasm, 0o644, atomicfile.Options{}); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(outDir, manifest.FileName), data, 0o644, atomicfile.Options{}); err != nil {
		return nil, err
	}
	return stamped, nil
}
