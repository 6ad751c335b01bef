package test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// An overview of a subfolder lists the tasks in it as the root's overview
// does: the root's package.json, which the subfolder's walk never offers,
// still names the package manager (packageManager, with no lock file) and
// the workspace's members ("!" globs leave a package out).
func TestOverviewOfASubfolderKeepsTheRootsPackageManager(t *testing.T) {
	root := workspace(t, map[string]string{
		"package.json":                 `{"name":"r","packageManager":"pnpm@9.1.0","workspaces":["packages/*","!packages/legacy"],"scripts":{"build":"tsc"}}`,
		"packages/app/package.json":    `{"name":"a","scripts":{"test":"vitest"}}`,
		"packages/legacy/package.json": `{"name":"l","scripts":{"old":"gulp"}}`,
	})
	s := start(t, root)
	tasks := func(path string) []string {
		var out []string
		sc := structured(t, s.call("project_overview", map[string]any{"path": path}))
		for _, x := range sc["tasks"].([]any) {
			m := x.(map[string]any)
			out = append(out, fmt.Sprint(m["cwd"], " ", m["command"]))
		}
		slices.Sort(out)
		return out
	}
	all := tasks(".")
	if !slices.Contains(all, "packages/app pnpm run test") {
		t.Fatalf("the root's overview: %q", all)
	}
	for _, dir := range []string{"packages", "packages/app", "packages/legacy"} {
		var want []string
		for _, x := range all {
			if strings.HasPrefix(x, dir+" ") || strings.HasPrefix(x, dir+"/") {
				want = append(want, x)
			}
		}
		if got := tasks(dir); !slices.Equal(got, want) {
			t.Errorf("overview of %s: %q, the root's says %q", dir, got, want)
		}
	}
}
