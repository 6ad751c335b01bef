package git

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// gitIn runs plain git in dir with a fixed identity, failing the test on
// an error.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@a", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@a")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return string(out)
}

// newRepo makes a repository in a new folder with one commit of file
// holding content, on main.
func newRepo(t *testing.T, file, content string) string {
	t.Helper()
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644)
	gitIn(t, dir, "add", file)
	gitIn(t, dir, "commit", "-q", "-m", "subject of "+file)
	return dir
}

// hostGit serves the git host function over the roots with opts and
// returns a call at the read tier (exec for add and commit).
func hostGit(t *testing.T, opts Options, roots ...string) func(args ...string) (*abi.GitResult, string, *abi.Error) {
	t.Helper()
	p, err := policy.New(policy.Config{Roots: roots})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	h := New(p, opts)[0].Handle
	return func(args ...string) (*abi.GitResult, string, *abi.Error) {
		tier := abi.TierRead
		if args[0] == "add" || args[0] == "commit" {
			tier = abi.TierExec
		}
		ctx := hostfns.WithCaller(context.Background(), hostfns.Caller{Tier: tier})
		b, _ := json.Marshal(abi.GitRequest{Args: args})
		rh, body := h(ctx, b, nil)
		var r abi.GitResult
		json.Unmarshal(rh, &r)
		if r.Error != nil {
			return nil, "", r.Error
		}
		return &r, string(body), nil
	}
}

// A .git file naming a folder inside the root whose commondir names a
// repository outside: the repository is not used, and no read shows the
// other one's history or content.
func TestCommondirOutsideTheRootsIsRefused(t *testing.T) {
	victim := newRepo(t, "victim.txt", "VICTIM-CONTENT\n")
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".fakegit"), 0o755)
	os.WriteFile(filepath.Join(root, ".fakegit", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".fakegit", "commondir"), []byte(filepath.Join(victim, ".git")+"\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: .fakegit\n"), 0o644)
	// The same through a link inside the root to the other repository.
	linked := t.TempDir()
	os.Symlink(filepath.Join(victim, ".git"), filepath.Join(linked, "common"))
	os.MkdirAll(filepath.Join(linked, ".fakegit"), 0o755)
	os.WriteFile(filepath.Join(linked, ".fakegit", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(linked, ".fakegit", "commondir"), []byte("../common\n"), 0o644)
	os.WriteFile(filepath.Join(linked, ".git"), []byte("gitdir: .fakegit\n"), 0o644)
	for _, root := range []string{root, linked} {
		git := hostGit(t, Options{}, root)
		for _, args := range [][]string{{"log", "-p"}, {"diff", "HEAD~0"}, {"show", "HEAD"}, {"ls-files"}} {
			r, out, err := git(args...)
			if strings.Contains(out, "VICTIM") || strings.Contains(out, "victim.txt") {
				t.Fatalf("git %v read the repository the commondir names: %s", args, out)
			}
			if err == nil || err.Code != abi.PathDenied || !strings.Contains(err.Message, "outside the workspace roots") {
				t.Errorf("git %v: %+v %v, want PATH_DENIED saying why", args, r, err)
			}
		}
	}
}

// Links and alternates in the root's own .git folder that lead outside
// the roots make git read another repository as this one: every read is
// refused, naming the entry, and nothing of the other repository shows.
func TestRepositoryLinksOutsideTheRootsAreRefused(t *testing.T) {
	for _, c := range []struct {
		name  string
		plant func(t *testing.T, dotgit, victim string)
	}{
		{"alternates and a linked ref", func(t *testing.T, dotgit, victim string) {
			os.WriteFile(filepath.Join(dotgit, "objects", "info", "alternates"), []byte(filepath.Join(victim, ".git", "objects")+"\n"), 0o644)
			os.Symlink(filepath.Join(victim, ".git", "refs", "heads", "main"), filepath.Join(dotgit, "refs", "heads", "stolen"))
		}},
		{"quoted relative alternates", func(t *testing.T, dotgit, victim string) {
			rel, _ := filepath.Rel(filepath.Join(dotgit, "objects"), filepath.Join(victim, ".git", "objects"))
			os.WriteFile(filepath.Join(dotgit, "objects", "info", "alternates"), []byte("# c\n\""+rel+"\"\n"), 0o644)
			gitIn(t, filepath.Dir(dotgit), "update-ref", "refs/heads/stolen", gitIn(t, victim, "rev-parse", "HEAD")[:40], "--no-deref")
		}},
		// Each entry below is read by git as leading out, and was once
		// read by juju as a harmless folder inside the root.
		{"alternates git cannot unquote", func(t *testing.T, dotgit, victim string) {
			// git takes a line whose quotes it cannot unquote (\x41)
			// as it is, quotes and all: the folder `"\x41`, then root/lnk".
			root := filepath.Dir(dotgit)
			os.Symlink(filepath.Join(victim, ".git", "objects"), filepath.Join(root, `lnk"`))
			os.MkdirAll(filepath.Join(root, "lnk"), 0o755)
			os.MkdirAll(filepath.Join(dotgit, "objects", `"\x41`), 0o755)
			os.WriteFile(filepath.Join(dotgit, "objects", "info", "alternates"), []byte(`"\x41/../../../lnk"`+"\n"), 0o644)
			stealHead(t, dotgit, victim)
		}},
		{"alternates climbing out of a link", func(t *testing.T, dotgit, victim string) {
			// objects/up leads to the root: git resolves up/.. to the
			// root's parent, where the victim lies, not to objects.
			root := filepath.Dir(dotgit)
			os.Symlink(root, filepath.Join(dotgit, "objects", "up"))
			rel := filepath.Join(filepath.Base(victim), ".git", "objects")
			os.MkdirAll(filepath.Join(dotgit, "objects", rel), 0o755)
			os.WriteFile(filepath.Join(dotgit, "objects", "info", "alternates"), []byte("up/../"+rel+"\n"), 0o644)
			stealHead(t, dotgit, victim)
		}},
		{"alternates ending in a carriage return", func(t *testing.T, dotgit, victim string) {
			root := filepath.Dir(dotgit)
			os.Symlink(filepath.Join(victim, ".git", "objects"), filepath.Join(root, "lnk\r"))
			os.MkdirAll(filepath.Join(root, "lnk"), 0o755)
			os.WriteFile(filepath.Join(dotgit, "objects", "info", "alternates"), []byte("../../lnk\r\n"), 0o644)
			stealHead(t, dotgit, victim)
		}},
		{"objects folder linked", func(t *testing.T, dotgit, victim string) {
			os.Rename(filepath.Join(dotgit, "objects"), filepath.Join(dotgit, "objects.own"))
			os.Symlink(filepath.Join(victim, ".git", "objects"), filepath.Join(dotgit, "objects"))
			os.Symlink(filepath.Join(victim, ".git", "refs", "heads", "main"), filepath.Join(dotgit, "refs", "heads", "stolen"))
		}},
		{"packed-refs and a loose object folder linked", func(t *testing.T, dotgit, victim string) {
			gitIn(t, victim, "branch", "stolen")
			gitIn(t, victim, "pack-refs", "--all")
			os.Symlink(filepath.Join(victim, ".git", "packed-refs"), filepath.Join(dotgit, "packed-refs"))
			dirs, _ := os.ReadDir(filepath.Join(victim, ".git", "objects"))
			for _, d := range dirs {
				if len(d.Name()) == 2 {
					os.RemoveAll(filepath.Join(dotgit, "objects", d.Name()))
					os.Symlink(filepath.Join(victim, ".git", "objects", d.Name()), filepath.Join(dotgit, "objects", d.Name()))
				}
			}
		}},
		{"a linked folder inside the root leading out", func(t *testing.T, dotgit, victim string) {
			hop := filepath.Join(filepath.Dir(dotgit), "hop")
			os.MkdirAll(hop, 0o755)
			os.Symlink(filepath.Join(victim, ".git", "refs", "heads", "main"), filepath.Join(hop, "stolen"))
			os.Symlink(hop, filepath.Join(dotgit, "refs", "heads", "via"))
			os.WriteFile(filepath.Join(dotgit, "objects", "info", "alternates"), []byte(filepath.Join(filepath.Dir(dotgit), "store")+"\n"), 0o644)
			store := filepath.Join(filepath.Dir(dotgit), "store")
			os.MkdirAll(filepath.Join(store, "info"), 0o755)
			os.WriteFile(filepath.Join(store, "info", "alternates"), []byte(filepath.Join(victim, ".git", "objects")+"\n"), 0o644)
		}},
		{"the index and a reflog linked", func(t *testing.T, dotgit, victim string) {
			os.Remove(filepath.Join(dotgit, "index"))
			os.Symlink(filepath.Join(victim, ".git", "index"), filepath.Join(dotgit, "index"))
			os.Remove(filepath.Join(dotgit, "logs", "HEAD"))
			os.Symlink(filepath.Join(victim, ".git", "logs", "HEAD"), filepath.Join(dotgit, "logs", "HEAD"))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			victim := newRepo(t, "victim.txt", "VICTIM-CONTENT\n")
			root := newRepo(t, "a.txt", "a\n")
			c.plant(t, filepath.Join(root, ".git"), victim)
			// Not even from the environment juju starts with.
			git := hostGit(t, Options{Env: append(os.Environ(), "GIT_ALTERNATE_OBJECT_DIRECTORIES="+filepath.Join(victim, ".git", "objects"))}, root)
			for _, args := range [][]string{{"log", "-p", "stolen"}, {"log", "-p", "via/stolen"}, {"log", "-p", "--all"}, {"log", "-g", "-p"}, {"status"}, {"ls-files"}, {"show", "stolen"}, {"add", "--", "a.txt"}} {
				r, out, err := git(args...)
				if strings.Contains(out, "VICTIM") || strings.Contains(out, "victim") {
					t.Fatalf("git %v read the other repository: %s", args, out)
				}
				if err == nil || err.Code != abi.PathDenied || !strings.Contains(err.Message, "the owner") {
					t.Errorf("git %v: %+v %v, want PATH_DENIED", args, r, err)
				}
			}
		})
	}
}

// A repository folder that a .git file names inside the root, swapped
// for a link to another repository after juju started, is not read: git
// would follow the link that GIT_DIR names.
func TestRepositoryFolderSwappedForALinkIsRefused(t *testing.T) {
	victim := newRepo(t, "victim.txt", "VICTIM-CONTENT\n")
	root := t.TempDir()
	gitIn(t, root, "init", "-q", "-b", "main", "--separate-git-dir="+filepath.Join(root, ".store"))
	os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: .store\n"), 0o644)
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644)
	gitIn(t, root, "add", "a.txt")
	gitIn(t, root, "commit", "-q", "-m", "own subject")
	git := hostGit(t, Options{}, root)
	if r, out, err := git("log", "--format=%s"); err != nil || r.ExitCode != 0 || out != "own subject\n" {
		t.Fatalf("log before the swap: %+v %q %v", r, out, err)
	}
	os.Rename(filepath.Join(root, ".store"), filepath.Join(root, ".store.old"))
	os.Symlink(filepath.Join(victim, ".git"), filepath.Join(root, ".store"))
	for _, args := range [][]string{{"log", "-p"}, {"diff", "HEAD"}, {"status"}} {
		r, out, err := git(args...)
		if strings.Contains(out, "VICTIM") || strings.Contains(out, "victim") {
			t.Fatalf("git %v read the other repository: %s", args, out)
		}
		if err == nil || err.Code != abi.PathDenied || !strings.Contains(err.Message, "replaced by a link") {
			t.Errorf("git %v: %+v %v, want PATH_DENIED", args, r, err)
		}
	}
}

// stealHead points refs/heads/stolen at the victim's last commit, which
// only the victim's objects hold.
func stealHead(t *testing.T, dotgit, victim string) {
	t.Helper()
	head := gitIn(t, victim, "rev-parse", "HEAD")
	os.WriteFile(filepath.Join(dotgit, "refs", "heads", "stolen"), []byte(head), 0o644)
}

// What the check lets through: links and alternates inside the roots, and
// a hooks folder linked anywhere (no read runs hooks).
func TestRepositoryLinksInsideTheRootsServe(t *testing.T) {
	root := newRepo(t, "a.txt", "a\n")
	other := filepath.Join(root, "vendored")
	os.MkdirAll(other, 0o755)
	gitIn(t, other, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(other, "o.txt"), []byte("o\n"), 0o644)
	gitIn(t, other, "add", "o.txt")
	gitIn(t, other, "commit", "-q", "-m", "vendored subject")
	dotgit := filepath.Join(root, ".git")
	os.WriteFile(filepath.Join(dotgit, "objects", "info", "alternates"), []byte("../../vendored/.git/objects\n"), 0o644)
	os.Symlink(filepath.Join(other, ".git", "refs", "heads", "main"), filepath.Join(dotgit, "refs", "heads", "vend"))
	os.Symlink("main", filepath.Join(dotgit, "refs", "heads", "alias"))
	os.RemoveAll(filepath.Join(dotgit, "hooks"))
	os.Symlink(t.TempDir(), filepath.Join(dotgit, "hooks"))
	git := hostGit(t, Options{}, root)
	if r, out, err := git("log", "--format=%s", "vend"); err != nil || r.ExitCode != 0 || out != "vendored subject\n" {
		t.Fatalf("log vend: %+v %q %v", r, out, err)
	}
	if r, out, err := git("log", "--format=%s", "alias"); err != nil || r.ExitCode != 0 || out != "subject of a.txt\n" {
		t.Fatalf("log alias: %+v %q %v", r, out, err)
	}
}
