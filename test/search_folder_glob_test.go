package test

import (
	"slices"
	"strings"
	"testing"
)

// A fileGlob written as ripgrep's --glob and Claude Code's Grep read it
// names folders too: !vendor and !vendor/ leave out every folder named
// vendor, at any depth, with both engines, where they searched it whole
// (a flood of a dependency's matches filling maxResults); src/ searches
// the folder src, where it matched no file and answered no matches; and a
// no-match under a fileGlob without a wildcard (src) says it names files.
func TestSearchCodeFolderGlobs(t *testing.T) {
	for _, engine := range []string{"ripgrep", "juju"} {
		t.Run(engine, func(t *testing.T) {
			if engine == "juju" {
				withoutRipgrep(t)
			}
			root := workspace(t, map[string]string{
				"main.go":               "needle\n",
				"src/app.ts":            "needle\n",
				"src/vendor/shim.ts":    "needle\n",
				"vendor/dep/dep.go":     "needle\n",
				"lib/vendor/x/y.go":     "needle\n",
				"lib/vendorish.go":      "needle\n",
				"node_modules/m/i.js":   "needle\n",
				"tools/node_modules.md": "needle\n",
			})
			s := start(t, root, "--mode", "trusted")
			files := func(glob string) []string {
				t.Helper()
				res := s.call("search_code", map[string]any{"pattern": "needle", "fileGlob": glob, "outputMode": "files"})
				if res.IsError {
					t.Fatalf("fileGlob %q: %s", glob, text(res))
				}
				sc := structured(t, res)
				if sc["engine"] != engine {
					t.Fatalf("engine %v, want %s", sc["engine"], engine)
				}
				var out []string
				for _, f := range sc["files"].([]any) {
					out = append(out, f.(map[string]any)["path"].(string))
				}
				slices.Sort(out)
				return out
			}
			for _, c := range []struct {
				glob string
				want []string
			}{
				{"!vendor", []string{"lib/vendorish.go", "main.go", "node_modules/m/i.js", "src/app.ts", "tools/node_modules.md"}},
				{"!vendor/", []string{"lib/vendorish.go", "main.go", "node_modules/m/i.js", "src/app.ts", "tools/node_modules.md"}},
				{"!node_modules", []string{"lib/vendor/x/y.go", "lib/vendorish.go", "main.go", "src/app.ts", "src/vendor/shim.ts", "tools/node_modules.md", "vendor/dep/dep.go"}},
				{"src/", []string{"src/app.ts", "src/vendor/shim.ts"}},
				{"!src/", []string{"lib/vendor/x/y.go", "lib/vendorish.go", "main.go", "node_modules/m/i.js", "tools/node_modules.md", "vendor/dep/dep.go"}},
				{"!*.go", []string{"node_modules/m/i.js", "src/app.ts", "src/vendor/shim.ts", "tools/node_modules.md"}},
			} {
				if got := files(c.glob); !slices.Equal(got, c.want) {
					t.Errorf("fileGlob %q searched %v, want %v", c.glob, got, c.want)
				}
			}
			got := s.ok("search_code", map[string]any{"pattern": "needle", "fileGlob": "src"})
			if !strings.Contains(got, `fileGlob "src" holds no wildcard, so only files named exactly src were searched`) || !strings.Contains(got, "pass it as path") {
				t.Errorf("a no-match under fileGlob src does not say it names files:\n%s", got)
			}
		})
	}
}

// A fileGlob listing patterns with a comma or a space (*.go,*.ts, as a
// model writes a list) is one glob to ripgrep and to juju's own search,
// and matches no file; the no-match answer says so and how to write
// several (*.{go,ts}), where a bare "No matches" read as no such code.
// What it matches is unchanged.
func TestSearchCodeListGlobNote(t *testing.T) {
	for _, engine := range []string{"ripgrep", "juju"} {
		t.Run(engine, func(t *testing.T) {
			if engine == "juju" {
				withoutRipgrep(t)
			}
			root := workspace(t, map[string]string{"main.go": "needle\n", "app.ts": "needle\n"})
			s := start(t, root, "--mode", "trusted")
			for _, glob := range []string{"*.go,*.ts", "*.go *.ts", "*.go, *.ts"} {
				got := s.ok("search_code", map[string]any{"pattern": "needle", "fileGlob": glob})
				if !strings.HasPrefix(got, "No matches") || !strings.Contains(got, "is a single glob, not a list") || !strings.Contains(got, `fileGlob "*.{go,ts}"`) {
					t.Errorf("fileGlob %q:\n%s", glob, got)
				}
			}
			got := s.ok("search_code", map[string]any{"pattern": "needle", "fileGlob": "src/*.{go,ts}"})
			if strings.Contains(got, "not a list") {
				t.Errorf("a comma inside braces is noted:\n%s", got)
			}
			if got := s.ok("search_code", map[string]any{"pattern": "needle", "fileGlob": "*.{go,ts}"}); !strings.Contains(got, "main.go") || !strings.Contains(got, "app.ts") {
				t.Errorf("fileGlob *.{go,ts}:\n%s", got)
			}
		})
	}
}
