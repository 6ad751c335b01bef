package fs

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestWildmatch(t *testing.T) {
	for _, c := range []struct {
		pattern, text string
		pathname      bool
		want          bool
	}{
		{"foo", "foo", true, true},
		{"foo", "bar", true, false},
		{"", "", true, true},
		{"???", "foo", true, true},
		{"??", "foo", true, false},
		{"*", "foo", true, true},
		{"f*", "foo", true, true},
		{"*f", "foo", true, false},
		{"*foo*", "foo", true, true},
		{"*ob*a*r*", "foobar", true, true},
		{"*ab", "aaaaaaabababab", true, true},
		{"foo\\*", "foo*", true, true},
		{"foo\\*bar", "foobar", true, false},
		{"f\\\\oo", "f\\oo", true, true},
		{"*[al]?", "ball", true, true},
		{"[ten]", "ten", true, false},
		{"**[!te]", "ten", true, true},
		{"**[!ten]", "ten", true, false},
		{"t[a-g]n", "ten", true, true},
		{"t[!a-g]n", "ten", true, false},
		{"t[!a-g]n", "ton", true, true},
		{"t[^a-g]n", "ton", true, true},
		{"a[]]b", "a]b", true, true},
		{"a[]-]b", "a-b", true, true},
		{"a[]a-]b", "aab", true, true},
		{"]", "]", true, true},
		{"foo*bar", "foo/baz/bar", true, false},
		{"foo**bar", "foo/baz/bar", true, false},
		{"foo/**/bar", "foo/baz/bar", true, true},
		{"foo/**/bar", "foo/bar", true, true},
		{"foo/**/**/bar", "foo/b/a/z/bar", true, true},
		{"foo/**", "foo", true, false},
		{"foo/**", "foo/a/b", true, true},
		{"**/foo", "foo", true, true},
		{"**/foo", "x/y/foo", true, true},
		{"**/foo", "x/yfoo", true, false},
		{"*/foo", "bar/foo", true, true},
		{"*/foo", "x/bar/foo", true, false},
		{"foo?bar", "foo/bar", true, false},
		{"foo[/]bar", "foo/bar", true, false},
		{"*.c", "a/b.c", true, false},
		{"*.c", "a/b.c", false, true},
		{"[[:alpha:]][[:digit:]][[:upper:]]", "a1B", true, true},
		{"[[:digit:][:upper:][:space:]]", "a", true, false},
		{"[[:digit:][:upper:][:space:]]", " ", true, true},
		{"[[:xdigit:]]", "F", true, true},
		{"[[:xyz:]]", "x", true, false},
		{"[[:alpha:]", "x", true, false},
		{"[a-", "a", true, false},
		{"[", "[", true, false},
		{"\\", "\\", true, false},
		{"a\\", "a", true, false},
		{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1", true, true},
		{"XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*", "XXX/adobe/courier/bold/o/normal//12/120/75/75/X/70/iso8859/1", true, false},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt", true, true},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", true, false},
	} {
		budget := maxEntrySteps
		if got := wildmatch(c.pattern, c.text, c.pathname, &budget); got != c.want {
			t.Errorf("wildmatch(%q, %q, %v) = %v, want %v", c.pattern, c.text, c.pathname, got, c.want)
		}
	}
}

// An ignoreCase is a tree with .gitignore files and the paths expected to
// be ignored. Paths ending in "/" are folders.
type ignoreCase struct {
	name    string
	files   map[string]string
	paths   []string
	ignored []string
}

var ignoreCases = []ignoreCase{
	{
		name: "root rules",
		files: map[string]string{".gitignore": "# comment\n" +
			"*.log\n!important.log\nbuild/\n/root-only.txt\ndocs/*.md\n!docs/keep.md\n" +
			"**/cache\na/**/z\nfoo/**\n!foo/bar\ntrail\\ \nspaces   \n\\#hash\n\\!bang\n" +
			"[abc].c\n[!abc].d\n[a-c]x.e\n*.[oa]\nnode_modules\nsrc/**/gen/\nlit*eral\nx[[:digit:]]y\n"},
		paths: []string{
			"a.log", "sub/b.log", "important.log", "sub/important.log",
			"build/", "build/x", "sub/build/", "sub/build/y", "notbuild",
			"root-only.txt", "sub/root-only.txt",
			"docs/a.md", "docs/keep.md", "docs/sub/c.md",
			"cache/", "cache/f", "x/cache", "x/y/cache/z",
			"a/z", "a/b/z", "a/b/c/z", "a/zz",
			"foo/", "foo/bar", "foo/baz",
			"trail ", "trail", "spaces", "#hash", "!bang", "bang",
			"a.c", "d.c", "a.d", "e.d", "bx.e", "dx.e", "m.o", "m.a", "m.so",
			"node_modules/pkg/index.js", "lib/node_modules/",
			"src/x/gen/file", "src/gen/file", "gen/file",
			"literal", "lit-x-eral", "lite", "x1y", "xay",
		},
		ignored: []string{
			"a.log", "sub/b.log",
			"build/", "build/x", "sub/build/", "sub/build/y",
			"root-only.txt",
			"docs/a.md",
			"cache/", "cache/f", "x/cache", "x/y/cache/z",
			"a/z", "a/b/z", "a/b/c/z",
			"foo/baz",
			"trail ", "spaces", "#hash", "!bang",
			"a.c", "e.d", "bx.e", "m.o", "m.a",
			"node_modules/pkg/index.js", "lib/node_modules/",
			"src/x/gen/file", "src/gen/file",
			"literal", "lit-x-eral", "x1y",
		},
	},
	{
		name: "nested files and exclude",
		files: map[string]string{
			".gitignore":             "*.tmp\n!keep.tmp\n/top/\n",
			"sub/.gitignore":         "!*.tmp\nlocal\n/anchored\n*.txt\n",
			"sub/deeper/.gitignore":  "!x.txt\n",
			".git/info/exclude":      "excluded\n*.txt\n!root.txt\n",
			"other/.gitignore":       "../*.md\nx/**/y\n",
			"other/x/.gitignore":     "/z\n",
			"neg/.gitignore":         "*\n!*/\n!*.keep\n",
			"neg/deep/more/.gitkeep": "",
		},
		paths: []string{
			"a.tmp", "keep.tmp", "sub/a.tmp", "top/f", "sub/top/f",
			"sub/local", "sub/x/local", "local", "sub/anchored", "sub/x/anchored", "anchored",
			"sub/a.txt", "sub/deeper/x.txt", "sub/deeper/y.txt",
			"excluded", "sub/excluded", "a.txt", "root.txt",
			"r.md", "other/r.md", "other/x/y", "other/x/a/y", "other/x/z", "other/z", "other/x/a/z",
			"neg/a", "neg/a.keep", "neg/deep/b", "neg/deep/b.keep", "neg/deep/more/.gitkeep",
		},
		ignored: []string{
			"a.tmp", "top/f",
			"sub/local", "sub/x/local", "sub/anchored",
			"sub/a.txt", "sub/deeper/y.txt",
			"excluded", "sub/excluded", "a.txt",
			"other/x/y", "other/x/a/y", "other/x/z",
			"neg/a", "neg/deep/b", "neg/deep/more/.gitkeep",
		},
	},
	{
		name:    "bom and crlf",
		files:   map[string]string{".gitignore": "\xef\xbb\xbf*.bom\r\nfoo\r\n  \r\n\r\n#x\r\nbar \r\n"},
		paths:   []string{"a.bom", "foo", "bar", "#x", "  "},
		ignored: []string{"a.bom", "foo", "bar"},
	},
	{
		name: "parent excluded wins",
		files: map[string]string{".gitignore": "dir/\n!dir/keep\ndir2/*\n!dir2/keep\n" +
			"quirk**/x\n**/deep/**\n!**/deep/keep\n"},
		paths: []string{
			"dir/keep", "dir/other", "dir2/keep", "dir2/other", "dir2/sub/",
			"quirkab/x", "quirk/x", "quirka/b/x",
			"deep/a", "deep/keep", "s/deep/t/u", "deep/",
		},
		ignored: []string{
			"dir/keep", "dir/other", "dir2/other", "dir2/sub/",
			// git quirk: the literal head "quirk" is compared first, and
			// the rest, "**/x", then counts as a leading "**/".
			"quirkab/x", "quirk/x", "quirka/b/x",
			"deep/a", "s/deep/t/u",
		},
	},
}

func TestGitignore(t *testing.T) {
	for _, c := range ignoreCases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range c.files {
				must(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755))
				must(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
			}
			for _, p := range c.paths {
				full := filepath.Join(dir, p)
				if strings.HasSuffix(p, "/") {
					must(t, os.MkdirAll(full, 0o755))
					continue
				}
				must(t, os.MkdirAll(filepath.Dir(full), 0o755))
				if _, err := os.Stat(full); err != nil {
					must(t, os.WriteFile(full, nil, 0o644))
				}
			}
			var got []string
			for _, p := range c.paths {
				if walkIgnored(t, dir, strings.TrimSuffix(p, "/"), strings.HasSuffix(p, "/")) {
					got = append(got, p)
				}
			}
			want := append([]string(nil), c.ignored...)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("ignored:\n got  %q\n want %q", got, want)
			}
			if byGit, ok := gitIgnored(t, dir, c.paths); ok {
				slices.Sort(byGit)
				if !slices.Equal(byGit, want) {
					t.Errorf("the table disagrees with git check-ignore:\n git   %q\n table %q", byGit, want)
				}
			}
		})
	}
}

// walkIgnored says whether a walk from dir would leave rel out: rel or a
// folder above it is ignored by the rules in force there.
func walkIgnored(t *testing.T, dir, rel string, isDir bool) bool {
	read := func(name string) []byte {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return b
	}
	var s ignoreStack
	s = s.push(parseIgnore("", read(".git/info/exclude")))
	s = s.push(parseIgnore("", read(".gitignore")))
	parts := strings.Split(rel, "/")
	for i := range len(parts) - 1 {
		anc := strings.Join(parts[:i+1], "/")
		if s.ignored(anc, true) {
			return true
		}
		s = s.push(parseIgnore(anc, read(anc+"/.gitignore")))
	}
	return s.ignored(rel, isDir)
}

// gitIgnored asks git which paths are ignored; ok is false without git.
func gitIgnored(t *testing.T, dir string, paths []string) ([]string, bool) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, false
	}
	home := t.TempDir()
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1")
	if _, err := os.Stat(filepath.Join(dir, ".git/HEAD")); err != nil {
		// Keep an existing .git/info/exclude: git init leaves it alone.
		cmd := exec.Command(git, "init", "-q", dir)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git init: %v %s", err, out)
		}
	}
	var in bytes.Buffer
	byName := map[string]string{}
	for _, p := range paths {
		name := strings.TrimSuffix(p, "/")
		byName[name] = p
		in.WriteString(name + "\x00")
	}
	cmd := exec.Command(git, "-C", dir, "check-ignore", "--no-index", "--stdin", "-z")
	cmd.Env = env
	cmd.Stdin = &in
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		t.Fatalf("git check-ignore: %v", err)
	}
	var ignored []string
	for name := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if name != "" {
			ignored = append(ignored, byName[name])
		}
	}
	return ignored, true
}

// A .gitignore comes with the repository: however many costly rules it
// holds, one name is matched against them within maxEntrySteps (45,000
// rules of **/**/**/**/**/a*b*c*d made each name of a deep folder take
// 4.5 s, a listing of 200 a quarter of an hour).
func TestHostileIgnoreIsBoundedPerName(t *testing.T) {
	rules := strings.Repeat("**/**/**/**/**/a*b*c*d\n", 45000)
	var s ignoreStack
	s = s.push(parseIgnore("", []byte(rules)))
	deep := strings.Repeat("x/", 40) + "yyyy"
	begin := time.Now()
	for i := range 20 {
		s.ignored(fmt.Sprintf("%s%d", deep, i), false)
	}
	// maxEntrySteps steps take well under 10 ms; 20 names under a second
	// on a slow machine, against 90 s before the bound.
	if d := time.Since(begin); d > 3*time.Second {
		t.Errorf("20 names against a hostile .gitignore took %v", d)
	}
}
