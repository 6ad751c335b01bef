package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/sandboxtest"
)

func TestGuardGit(t *testing.T) {
	control := func(root string) []string {
		var out []string
		for _, c := range GitControl {
			out = append(out, filepath.Join(root, ".git", c))
		}
		return out
	}
	t.Run("folder", func(t *testing.T) {
		root := t.TempDir()
		os.MkdirAll(filepath.Join(root, ".git", "objects", "info"), 0o755)
		g := GuardGit(root)
		if want := []string{filepath.Join(root, ".git"), filepath.Join(root, ".git", "objects")}; !slices.Equal(g.Pinned, want) {
			t.Errorf("Pinned = %q, want %q", g.Pinned, want)
		}
		// Listed whether or not they exist: bubblewrap skips the missing
		// ones, sandbox-exec denies them by path.
		if !slices.Equal(g.ReadOnly, control(root)) {
			t.Errorf("ReadOnly = %q", g.ReadOnly)
		}
	})
	t.Run("objects is a link", func(t *testing.T) {
		root := t.TempDir()
		os.MkdirAll(filepath.Join(root, "store"), 0o755)
		os.MkdirAll(filepath.Join(root, ".git"), 0o755)
		os.Symlink("../store", filepath.Join(root, ".git", "objects"))
		if g := GuardGit(root); !slices.Equal(g.Pinned, []string{filepath.Join(root, ".git")}) {
			t.Errorf("a link is never pinned: %q", g.Pinned)
		}
	})
	for name, make := range map[string]func(dotgit string) error{
		"file": func(dotgit string) error {
			return os.WriteFile(dotgit, []byte("gitdir: ../main/.git/worktrees/x\n"), 0o644)
		},
		"link": func(dotgit string) error { return os.Symlink("elsewhere", dotgit) },
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			if err := make(filepath.Join(root, ".git")); err != nil {
				t.Fatal(err)
			}
			g := GuardGit(root)
			if len(g.Pinned) != 0 || !slices.Equal(g.ReadOnly, []string{filepath.Join(root, ".git")}) {
				t.Errorf("got %+v", g)
			}
		})
	}
	// A .git file or link leading to a git folder inside the root (git
	// init --separate-git-dir) guards that folder as a .git folder is
	// guarded; one leading out of the root does not.
	for name, make := range map[string]func(root string) error{
		"file, relative": func(root string) error {
			return os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: store\n"), 0o644)
		},
		"file, absolute": func(root string) error {
			return os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: "+filepath.Join(root, "store")+"\n"), 0o644)
		},
		"link": func(root string) error { return os.Symlink("store", filepath.Join(root, ".git")) },
		"file, out": func(root string) error {
			return os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: ../store\n"), 0o644)
		},
		"file, not gitdir": func(root string) error { return os.WriteFile(filepath.Join(root, ".git"), []byte("store\n"), 0o644) },
	} {
		t.Run("inside the root: "+name, func(t *testing.T) {
			base, err := filepath.EvalSymlinks(t.TempDir()) // a root is its real path
			if err != nil {
				t.Fatal(err)
			}
			root := filepath.Join(base, "r")
			for _, d := range []string{filepath.Join(root, "store", "objects"), filepath.Join(base, "store", "objects")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := make(root); err != nil {
				t.Fatal(err)
			}
			g := GuardGit(root)
			inside := !strings.Contains(name, "out") && !strings.Contains(name, "not")
			want := GitGuard{ReadOnly: []string{filepath.Join(root, ".git")}}
			if inside {
				store := filepath.Join(root, "store")
				want.Pinned = []string{store, filepath.Join(store, "objects")}
				for _, c := range GitControl {
					want.ReadOnly = append(want.ReadOnly, filepath.Join(store, c))
				}
			}
			if !slices.Equal(g.Pinned, want.Pinned) || !slices.Equal(g.ReadOnly, want.ReadOnly) {
				t.Errorf("got %+v\nwant %+v", g, want)
			}
		})
	}
	t.Run("none", func(t *testing.T) {
		if g := GuardGit(t.TempDir()); len(g.Pinned)+len(g.ReadOnly) != 0 {
			t.Errorf("got %+v", g)
		}
	})
}

func TestAddRoot(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "r")
	os.MkdirAll(filepath.Join(root, ".git", "objects"), 0o755)
	os.Symlink("r", filepath.Join(base, "link"))
	var p Policy
	p.AddRoot(filepath.Join(base, "link"))
	if !slices.Equal(p.Write, []string{filepath.Join(base, "link")}) {
		t.Errorf("a root was resolved again: %+v", p)
	}
	p = Policy{}
	p.AddRoot(root)
	g := GuardGit(root)
	if !slices.Equal(p.Write, []string{root}) || !slices.Equal(p.Pinned, append([]string{root}, g.Pinned...)) || !slices.Equal(p.ReadOnly, g.ReadOnly) {
		t.Errorf("got %+v", p)
	}
	if got := p.clean().pinBinds(); !slices.Equal(got, g.Pinned) {
		t.Errorf("pinBinds = %q: the root is its own bind", got)
	}
}

// TestWrapGitGuarded runs sandboxtest.GitAttacks through Wrap with the real
// bubblewrap, with and without Landlock, and checks that each fails and
// that the host's .git is unchanged: the same folder, or file, with the
// same hooks, configuration and redirections.
func TestWrapGitGuarded(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux")
	}
	needBubblewrap(t)
	for _, landlock := range []bool{true, false} {
		t.Run(map[bool]string{true: "landlock", false: "bubblewrap only"}[landlock], func(t *testing.T) {
			sb := New(testHelper(t))
			sb.detect()
			if !landlock {
				sb.landlock = Availability{Name: "landlock", Reason: "left out by the test"}
			} else if !sb.landlock.Available {
				t.Skipf("no Landlock: %s", sb.landlock.Reason)
			}
			// In one workspace, in order (the last empties .git): after
			// each, the git metadata must be as it was.
			main, wt := sandboxtest.GitWorkspace(t)
			var p Policy
			p.AddRoot(main)
			p.AddRoot(wt)
			dirs := map[string]string{"main": main, "wt": wt}
			before := map[string]map[string]string{"main": sandboxtest.GitSnapshot(t, main), "wt": sandboxtest.GitSnapshot(t, wt)}
			// Commands run in both roots: the attacks fail for what they
			// attempt, not because nothing runs.
			for _, dir := range dirs {
				if got, code, _ := runWrapped(t, sb, p, dir, "echo ok > sandboxed.txt"); code != 0 {
					t.Fatalf("a plain command in %s: exit %d\n%s", dir, code, got)
				}
			}
			for _, a := range sandboxtest.GitAttacks {
				got, code, mech := runWrapped(t, sb, p, dirs[a.Dir], a.Script)
				if code == 0 {
					t.Errorf("%s (%s): succeeded in the sandbox (%s):\n%s", a.Name, a.Script, mech, got)
				}
				for name, dir := range dirs {
					sandboxtest.SameGit(t, dir, before[name])
				}
				if t.Failed() {
					t.Fatalf("after %q", a.Name)
				}
			}
		})
	}
}

// TestWrapGitWorks: git add, commit and checkout -b still work in the
// sandbox, and leave a sound repository.
func TestWrapGitWorks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux")
	}
	needBubblewrap(t)
	main, _ := sandboxtest.GitWorkspace(t)
	var p Policy
	p.AddRoot(main)
	sb := New(testHelper(t))
	script := `export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
echo b > b.txt && git add b.txt && git commit -q -m "from the sandbox" && git checkout -q -b topic && echo b2 >> b.txt && git commit -q -am second && git checkout -q main && echo all-ok`
	got, code, mech := runWrapped(t, sb, p, main, script)
	if code != 0 || !strings.Contains(got, "all-ok") {
		t.Fatalf("exit %d (%s):\n%s", code, mech, got)
	}
	if log := sandboxtest.Git(t, main, "log", "--format=%s", "topic"); log != "second\nfrom the sandbox\nfirst\n" {
		t.Errorf("log on the host:\n%s", log)
	}
	if fsck := sandboxtest.Git(t, main, "fsck", "--no-progress"); fsck != "" {
		t.Errorf("fsck: %s", fsck)
	}
}
