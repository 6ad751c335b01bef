//go:build unix

package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/jujutools/juju/internal/policy"
)

// pnpmTree writes a pnpm-style monorepo under root: pkgs packages in
// node_modules/.pnpm/<pkg>@1.0.0/node_modules/<pkg>/ of files files each,
// each with 3 to 8 links to sibling .pnpm entries beside it, a top-level
// node_modules/<pkg> link for each, and a few workspace packages with
// node_modules links of their own.
func pnpmTree(tb testing.TB, root string, pkgs, files int) {
	tb.Helper()
	name := func(i int) string { return fmt.Sprintf("pkg%04d", i) }
	store := filepath.Join(root, "node_modules", ".pnpm")
	for i := range pkgs {
		entry := filepath.Join(store, name(i)+"@1.0.0", "node_modules")
		dir := filepath.Join(entry, name(i))
		if err := os.MkdirAll(filepath.Join(dir, "lib"), 0o755); err != nil {
			tb.Fatal(err)
		}
		for f := range files {
			sub := dir
			if f%2 == 1 {
				sub = filepath.Join(dir, "lib")
			}
			os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%02d.js", f)), nil, 0o644)
		}
		for d := range 3 + i%6 {
			dep := name((i + 1 + d*7) % pkgs)
			os.Symlink(filepath.Join("..", "..", dep+"@1.0.0", "node_modules", dep), filepath.Join(entry, dep))
		}
		os.Symlink(filepath.Join(".pnpm", name(i)+"@1.0.0", "node_modules", name(i)), filepath.Join(root, "node_modules", name(i)))
	}
	for w := range 6 {
		nm := filepath.Join(root, "packages", fmt.Sprintf("app%d", w), "node_modules")
		os.MkdirAll(nm, 0o755)
		os.WriteFile(filepath.Join(root, "packages", fmt.Sprintf("app%d", w), "index.ts"), nil, 0o644)
		for d := range 20 {
			dep := name((w*20 + d) % pkgs)
			os.Symlink(filepath.Join("..", "..", "..", "node_modules", ".pnpm", dep+"@1.0.0", "node_modules", dep), filepath.Join(nm, dep))
		}
	}
}

// BenchmarkLinkToSecretPnpm walks a pnpm monorepo of 1,500 packages of 50
// files (about 80,000 entries, 9,000 links): the check every language
// server start pays. LSPWALK_ROOT names a tree made before (by this
// benchmark, kept) to skip writing it again.
func BenchmarkLinkToSecretPnpm(b *testing.B) {
	root := os.Getenv("LSPWALK_ROOT")
	if root == "" {
		root = b.TempDir()
		pnpmTree(b, root, 1500, 50)
	} else if _, err := os.Stat(filepath.Join(root, "node_modules")); err != nil {
		pnpmTree(b, root, 1500, 50)
	}
	pol, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		b.Fatal(err)
	}
	defer pol.Close()
	m := New(pol, Options{})
	real, _ := filepath.EvalSymlinks(root)
	b.ResetTimer()
	for range b.N {
		got, err := m.linkToSecret(context.Background(), real)
		if err != nil || got != "" {
			b.Fatal(got, err)
		}
	}
}
