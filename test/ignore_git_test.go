package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ignoreTree is a repository whose .gitignore files exercise gitignore(5):
// comments and escaped "#" and "!", trailing spaces kept by "\ ",
// negation, a file re-included under an ignored folder (it stays out),
// anchored and folder-only patterns, "**/", "/**", "a/**/b", classes,
// case, unicode and backslashes in names, a nested .gitignore overriding
// its parent's, and .git/info/exclude. Every file holds MARK, so a search
// finds each file it sees.
func ignoreTree(t *testing.T) string {
	root := t.TempDir()
	files := map[string]string{
		".gitignore": "# comment\n\\#hash\n\\!bang\ntrail   \ntrailesc\\ \n*.log\n!keep.log\nbuild/\n!build/keep.txt\n/anchored\ndocs/**/gen\n**/deep\nout/**\n!out/keep/\nfolderonly/\n[abc]class.txt\n[!x]neg.txt\nCase.TXT\nünï.txt\nback\\\\slash\nsp\\ ace\nx/**/y\nlit[[]br.txt\n*.tmp\n!/sub/re.tmp\nnest/\n!nest/inner/\nstar*/\n/a/b/\n#MARK\n",
		"#hash":      "", "#nohash": "", "!bang": "", "trail": "", "trail   ": "", "trailesc ": "", "trailesc": "",
		"x.log": "", "keep.log": "", "sub/x.log": "", "sub/keep.log": "",
		"build/a.txt": "", "build/keep.txt": "", "sub/build/b.txt": "",
		"anchored": "", "sub/anchored": "",
		"docs/gen": "", "docs/a/gen": "", "docs/a/b/gen/f.txt": "", "gen": "",
		"deep": "", "a1/deep": "", "a2/deep/f.txt": "",
		"out/f.txt": "", "out/keep/f.txt": "", "out/keep/g/h.txt": "",
		"folderonly": "", "sub/folderonly/f.txt": "",
		"aclass.txt": "", "dclass.txt": "", "xneg.txt": "", "yneg.txt": "",
		"Case.TXT": "", "case.txt": "", "CASE.TXT": "",
		"ünï.txt": "", "ünï.TXT": "", "u\u0308n.txt": "",
		"back\\slash": "", "backslash": "", "sp ace": "", "sp\\ ace": "",
		"x/y": "", "x/a/y": "", "x/a/b/y": "", "x/ay": "",
		"lit[br.txt": "", "litbr.txt": "",
		"a.tmp": "", "sub/re.tmp": "", "sub/other.tmp": "",
		"nest/inner/f.txt": "", "nest/f.txt": "",
		"star1/f.txt": "", "starfile": "", "a/b/f.txt": "", "c/a/b/f.txt": "",
		"sub/.gitignore": "!*.log\n/local\n!anchored\ndeepsub/\n#MARK\n",
		"sub/local":      "", "sub/more/local": "",
		"sub/deepsub/f.txt": "", "deepsub/f.txt": "",
		"sub/more/.gitignore": "*\n!*.txt\n!*/\n#MARK\n",
		"sub/more/a.txt":      "", "sub/more/a.md": "", "sub/more/d/e.txt": "", "sub/more/d/e.md": "",
		"excluded.txt": "", "sub/excluded.txt": "",
		"plain.txt": "",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if body == "" {
			body = "MARK\n"
		}
		must(t, os.WriteFile(p, []byte(body), 0o644))
	}
	rawGit(t, root, "init", "-q")
	must(t, os.WriteFile(filepath.Join(root, ".git/info/exclude"), []byte("excluded.txt\n"), 0o644))
	return root
}

// gitOthers is what git lists as untracked and not ignored, git's global
// excludes file left out (juju does not read it).
func gitOthers(t *testing.T, root string) []string {
	cmd := exec.Command("git", "-C", root, "-c", "core.excludesFile=/dev/null", "ls-files", "--others", "--exclude-standard", "-z")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var r []string
	for _, s := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if s != "" {
			r = append(r, s)
		}
	}
	slices.Sort(r)
	return r
}

// sameFiles reports what a walker listed beyond git's list and what it
// left out of it.
func sameFiles(t *testing.T, what string, got, want []string) {
	slices.Sort(got)
	var extra, missing []string
	for _, g := range got {
		if !slices.Contains(want, g) {
			extra = append(extra, g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			missing = append(missing, w)
		}
	}
	if extra != nil || missing != nil {
		t.Errorf("%s: extra %q missing %q", what, extra, missing)
	}
}

// entryPaths is the path of each entry of the structured list sc[key].
func entryPaths(t *testing.T, sc map[string]any, key string) []string {
	var r []string
	l, _ := sc[key].([]any)
	for _, e := range l {
		m := e.(map[string]any)
		r = append(r, m["path"].(string))
	}
	return r
}

// Every walker sees the files git sees as untracked and not ignored:
// glob_files, replace_in_files' glob, list_directory folder by folder,
// project_overview's count and search_code with either engine (rg is given
// juju's own ignore file; juju's search walks itself).
func TestWalkersIgnoreWhatGitIgnores(t *testing.T) {
	for _, engine := range []string{"ripgrep", "juju"} {
		t.Run(engine, func(t *testing.T) {
			root := ignoreTree(t)
			want := gitOthers(t, root)
			if engine == "juju" {
				withoutRipgrep(t)
			}
			s := start(t, root, "--mode", "trusted")
			res := s.call("search_code", map[string]any{"pattern": "MARK", "outputMode": "files", "maxResults": 1000})
			sc := structured(t, res)
			if sc["engine"] != engine {
				t.Fatalf("engine %v", sc["engine"])
			}
			sameFiles(t, "search_code "+engine, entryPaths(t, sc, "files"), want)
			if engine == "juju" {
				return
			}
			sameFiles(t, "glob_files", entryPaths(t, structured(t, s.call("glob_files", map[string]any{"pattern": "**", "limit": 10000})), "files"), want)
			rp := structured(t, s.call("replace_in_files", map[string]any{"oldString": "MARK", "newString": "X", "fileGlob": "**"}))
			sameFiles(t, "replace_in_files", entryPaths(t, rp, "files"), want)
			ov := structured(t, s.call("project_overview", map[string]any{}))
			if int(ov["files"].(float64)) != len(want) {
				t.Errorf("overview files %v want %d", ov["files"], len(want))
			}
			var listed []string
			var walk func(dir string)
			walk = func(dir string) {
				sc := structured(t, s.call("list_directory", map[string]any{"path": dir, "limit": 2000}))
				for _, e := range sc["entries"].([]any) {
					m := e.(map[string]any)
					if m["path"] == ".git" {
						continue // listed, never walked
					}
					if m["type"] == "dir" {
						walk(m["path"].(string))
					} else {
						listed = append(listed, m["path"].(string))
					}
				}
			}
			walk(".")
			sameFiles(t, "list_directory", listed, want)
		})
	}
}
