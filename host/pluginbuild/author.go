package pluginbuild

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/jujutools/juju/internal/atomicfile"
	"github.com/jujutools/juju/internal/manifest"
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
	src, err := ReadSource(srcDir)
	if err != nil {
		return nil, fmt.Errorf("pluginbuild: %w (write one with the plugin's name, version, description, wasm.file and capabilities; see docs/PLUGINS.md)", err)
	}
	wasm, err := Compile(ctx, srcDir)
	if err != nil {
		return nil, err
	}
	d, err := DescribeCached(ctx, cacheDir, wasm)
	if err != nil {
		return nil, err
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
