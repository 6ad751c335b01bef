package search

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sdk/abi"
)

func needRG(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("rg"); err != nil {
		t.Skip("rg is not installed (make deps)")
	}
}

// call runs the host function with req and decodes its answer.
func call(t testing.TB, p *policy.Policy, opts Options, req abi.SearchRequest) abi.SearchResult {
	t.Helper()
	fns := New(p, opts)
	hdr, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := fns[0].Handle(context.Background(), hdr, nil)
	var res abi.SearchResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("answer %s: %v", out, err)
	}
	return res
}

func newPolicy(t testing.TB, root string, secrets ...string) *policy.Policy {
	t.Helper()
	p, err := policy.New(policy.Config{Roots: []string{root}, Secrets: secrets, Deny: []string{"vendor/private"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestFuncs(t *testing.T) {
	p := newPolicy(t, t.TempDir())
	fns := New(p, Options{})
	if len(fns) != 1 || fns[0].Name != abi.FnSearch || fns[0].Capability != abi.CapFSRead {
		t.Fatalf("functions: %+v", fns)
	}
}

// TestArgv pins the argument list: fixed flags, every exclusion, the
// pattern as one --regexp= argument, the path after "--".
func TestArgv(t *testing.T) {
	s := &server{excludes: []string{".env", "*.pem", "vendor/private/"}}
	got := s.argv(&abi.SearchRequest{Pattern: "--pre=sh", Literal: true, IgnoreCase: true, Glob: "*.go", ContextLines: 2}, "src", "/tmp/left-out", 101)
	want := []string{
		"--no-config", "--no-follow", "--hidden", "--no-ignore", "--no-messages", "--iglob=!.git", "--ignore-file=/tmp/left-out",
		"--iglob=!.env", "--iglob=!*.pem", "--iglob=!vendor/private",
		"--null", "--with-filename", "--no-heading", "--line-number", "--column", "--color=never",
		"--max-count=101", "--max-columns=65536", "--fixed-strings", "--ignore-case", "--type-add=juju:*.go", "--type=juju",
		"--regexp=--pre=sh", "--", "src",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("argv:\n got  %q\n want %q", got, want)
	}
	// count and files modes read rg's matching lines too, for the host to
	// check; files mode needs one per file.
	got = s.argv(&abi.SearchRequest{Pattern: "x", Mode: abi.SearchCount, Glob: "src/**/*.go"}, ".", "", perFile(abi.SearchCount, 5))
	if !slices.Contains(got, "--column") || !slices.Contains(got, "--max-count=10001") || !slices.Contains(got, "--case-sensitive") || slices.ContainsFunc(got, func(a string) bool { return strings.HasPrefix(a, "--type") }) {
		t.Fatalf("count argv: %q", got)
	}
	got = s.argv(&abi.SearchRequest{Pattern: "x", Mode: abi.SearchFiles}, ".", "", perFile(abi.SearchFiles, 5))
	if !slices.Contains(got, "--column") || !slices.Contains(got, "--max-count=1") || slices.ContainsFunc(got, func(a string) bool { return strings.HasPrefix(a, "--ignore-file") }) {
		t.Fatalf("files argv: %q", got)
	}
}

func TestValidate(t *testing.T) {
	for _, req := range []abi.SearchRequest{
		{},
		{Pattern: "a\nb"},
		{Pattern: "a\x00"},
		{Pattern: "a", ContextLines: -1},
		{Pattern: "a", Mode: "lines"},
		{Pattern: "a", Glob: "["},
		{Pattern: "a", Glob: "!"},
		{Pattern: "a", Glob: "../**"},
		{Pattern: "a", Glob: "!src/../../x"},
		{Pattern: "a", Glob: "/etc/*"},
		{Pattern: "a", MaxResults: -1},
		{Pattern: "a", SkipDirs: []string{""}},
		{Pattern: "a", SkipDirs: []string{"a/b"}},
		{Pattern: "a", SkipDirs: []string{`a\b`}},
		{Pattern: "a", SkipDirs: []string{"!keep"}},
		{Pattern: "a", SkipDirs: []string{"["}},
		{Pattern: "a", SkipDirs: []string{"a\nb"}},
		{Pattern: "a", SkipDirs: make([]string, abi.MaxSkipDirs+1)},
	} {
		if e := validate(&req); e == nil || e.Code != abi.InvalidArgument {
			t.Errorf("%+v: %v, want INVALID_ARGUMENT", req, e)
		}
	}
}

// Folders named in SkipDirs are not entered, at any depth; files of that
// name, and folders of other names, are searched.
func TestSkipDirs(t *testing.T) {
	needRG(t)
	root := testfs.Workspace(t, map[string]string{
		"cmd/main.go":              "package main\n",
		"cmd/testdata/x.go":        "package main\n",
		"lib/testdata/deep/y.go":   "package main\n",
		"_tools/z.go":              "package main\n",
		".hidden/h.go":             "package main\n",
		"lib/testdata.go":          "package main\n",
		"lib/_notes.go":            "package main\n",
		"lib/testdatax/kept.go":    "package main\n",
		"testdata/top.go":          "package main\n",
		"vendor/ok/v.go":           "package main\n",
		"docs/testdata/readme.txt": "package main\n",
	})
	p := newPolicy(t, root)
	files := func(req abi.SearchRequest) []string {
		t.Helper()
		res := call(t, p, Options{}, req)
		if res.Error != nil {
			t.Fatal(res.Error)
		}
		var got []string
		for _, f := range res.Files {
			got = append(got, f.Path)
		}
		slices.Sort(got)
		return got
	}
	req := abi.SearchRequest{Pattern: "^package main", Glob: "*.go", Mode: abi.SearchFiles}
	if got := files(req); len(got) != 10 {
		t.Fatalf("without skipDirs: %v, want the 10 .go files", got)
	}
	req.SkipDirs = []string{"testdata", "_*", ".*"}
	want := []string{"cmd/main.go", "lib/_notes.go", "lib/testdata.go", "lib/testdatax/kept.go", "vendor/ok/v.go"}
	if got := files(req); !slices.Equal(got, want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	req.SkipDirs = []string{"!testdata"}
	if res := call(t, p, Options{}, req); res.Error == nil || res.Error.Code != abi.InvalidArgument {
		t.Fatalf("a negated folder glob: %+v, want INVALID_ARGUMENT", res)
	}
}

// noRG makes the host search by itself.
var noRG = Options{RG: "no-such-program-juju"}

func TestWithoutRipgrep(t *testing.T) {
	p := newPolicy(t, testfs.Workspace(t, map[string]string{"a.txt": "one\nx marks\n"}))
	res := call(t, p, noRG, abi.SearchRequest{Pattern: "x"})
	if res.Unavailable || res.Error != nil || res.Engine != "juju" || len(res.Files) != 1 || res.Files[0].Matches[0].Line != 2 {
		t.Fatalf("want the host's own search to find a.txt:2: %+v", res)
	}
	res = call(t, p, noRG, abi.SearchRequest{Pattern: `a(b`})
	if res.Error == nil || res.Error.Code != abi.InvalidArgument || !strings.Contains(res.Error.Message, "literal: true") {
		t.Fatalf("a pattern that does not compile: %+v", res)
	}
}

// Without ripgrep the host finds what rg finds: the same files, lines,
// columns, context and counts, under the same ignore rules, exclusions and
// encodings, for every mode.
func TestNativeMatchesRipgrep(t *testing.T) {
	needRG(t)
	utf16 := "\xff\xfe" + string([]byte{'n', 0, 'e', 0, 'e', 0, 'd', 0, 'l', 0, 'e', 0, '\n', 0, 'x', 0, '\n', 0})
	root := testfs.Workspace(t, map[string]string{
		"main.go":              "package main\n\nfunc Handler() {}\nfunc handler2() {}\n// call a.b(c) here\n",
		"docs/ü.md":            "# Ünïcode needle here\nNEEDLE upper\n\n\nlast needle",
		"crlf.txt":             "needle\r\nneedle end\r\n",
		"bom.txt":              "\xef\xbb\xbfneedle first\n",
		"utf16.txt":            utf16,
		"bin.dat":              "needle\x00binary\n",
		".hidden/h.txt":        "needle hidden folder\n",
		".dot.txt":             "needle dotfile\n",
		".gitignore":           "ignored/\n*.log\n",
		"ignored/i.txt":        "needle ignored\n",
		"x.log":                "needle log\n",
		"sub/.gitignore":       "deep.txt\n",
		"sub/deep.txt":         "needle deep ignored\n",
		"sub/kept.txt":         "needle kept\nneedle twice\n",
		"sub/testdata/t.txt":   "needle testdata\n",
		"conf/db.local":        "needle SECRET\n",
		"vendor/private/x.txt": "needle DENIED\n",
		"node_modules/m.js":    "needle module\n",
		"long.txt":             strings.Repeat("a", 3000) + "needle\n",
		"empty.txt":            "",
		"lines.txt":            "a\n\nb\nneedle\n\n",
		"name\nbreak.txt":      "needle in a name with a line break\n",
		"dist/min.js":          "x\n" + strings.Repeat("m", maxEventBytes) + "needle\n", // too long to return
	})
	p := newPolicy(t, root, "*.local")
	for _, req := range []abi.SearchRequest{
		{Pattern: "needle"},
		{Pattern: "needle", ContextLines: 2},
		{Pattern: "needle", IgnoreCase: true},
		{Pattern: "needle", Mode: abi.SearchFiles},
		{Pattern: "needle", Mode: abi.SearchCount},
		{Pattern: "needle", MaxResults: 3},
		{Pattern: "needle", Mode: abi.SearchFiles, MaxResults: 2},
		{Pattern: "needle", Glob: "*.txt"},
		{Pattern: "needle", Glob: "*.{md,go}"},
		{Pattern: "needle", Glob: "sub/**/*.txt"},
		{Pattern: "needle", Glob: "!*.txt"},
		{Pattern: "needle", Glob: "!sub/**"},
		{Pattern: "needle", SkipDirs: []string{"testdata", ".*"}},
		{Pattern: "needle", Path: "sub"},
		{Pattern: "needle", Path: "sub/kept.txt"},
		{Pattern: "needle", Path: "x.log"},
		{Pattern: `func \w+\(`},
		{Pattern: "a.b(c)", Literal: true},
		{Pattern: "^needle$"},
		{Pattern: "^$"},
		{Pattern: `\bend\b`},
		{Pattern: `^(package main|//.*call)`},
		{Pattern: `\Aneedle`},
		{Pattern: `\Ax|needle`},
		{Pattern: `needle\z`},
		{Pattern: `(?m)^needle`},
		{Pattern: `needle\s+\w+`},
		{Pattern: "[^x]needle"},
		{Pattern: "(?i)ünïcode"},
		{Pattern: "(kept|twice|Handler)"},
		{Pattern: `needle (end|first|dotfile)\b`},
		{Pattern: "(?i)(NEEDLE up|KEPT)"},
	} {
		want := call(t, p, Options{}, req)
		got := call(t, p, noRG, req)
		if want.Engine != "ripgrep" || got.Engine != "juju" {
			t.Fatalf("%+v: engines %q and %q", req, want.Engine, got.Engine)
		}
		want.Engine, got.Engine = "", ""
		sortFiles(&want)
		sortFiles(&got)
		if w, g := mustJSON(t, want), mustJSON(t, got); w != g {
			t.Errorf("%+v:\n rg   %s\n host %s", req, w, g)
		}
	}
}

// sortFiles puts a result's files in path order: neither engine promises
// an order, and a result cut at its cap may hold other files.
func sortFiles(r *abi.SearchResult) {
	slices.SortFunc(r.Files, func(a, b abi.SearchFile) int { return strings.Compare(a.Path, b.Path) })
	if r.Truncated {
		r.Files = nil
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPolicyLastWord: files rg (or the host's own search) would report are
// dropped by the host, unsaid, when the policy refuses them, even where rg's
// exclusions cannot see it: a private key hard-linked under an innocent
// name. The owner's secret and deny globs reach rg from the policy, so rg
// skips those itself.
func TestPolicyLastWord(t *testing.T) {
	needRG(t)
	outside := t.TempDir()
	key := filepath.Join(outside, "key")
	if err := os.WriteFile(key, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nneedle\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	root := testfs.Workspace(t, map[string]string{
		"a.txt":                "needle\n",
		"conf/db.local":        "needle SECRET\n",
		"vendor/private/x.txt": "needle DENIED\n",
		"link.txt":             "->" + filepath.Join(outside, "key"),
	})
	if err := os.Link(key, filepath.Join(root, "hard.txt")); err != nil {
		t.Fatal(err)
	}
	p := newPolicy(t, root, "*.local")
	for _, c := range []struct {
		mode string
		opts Options
	}{
		{abi.SearchContent, Options{}}, {abi.SearchFiles, Options{}}, {abi.SearchCount, Options{}},
		{abi.SearchContent, noRG}, {abi.SearchFiles, noRG}, {abi.SearchCount, noRG},
	} {
		mode := c.mode + " (rg " + c.opts.RG + ")"
		res := call(t, p, c.opts, abi.SearchRequest{Pattern: "needle", Mode: c.mode, ContextLines: 2})
		if res.Error != nil {
			t.Fatal(res.Error)
		}
		var got []string
		for _, f := range res.Files {
			got = append(got, f.Path)
		}
		if !slices.Equal(got, []string{"a.txt"}) {
			t.Errorf("%s: files %v, want [a.txt]", mode, got)
		}
		// The multiply-linked key is caught by the policy, not by rg, and
		// left out unsaid: a count would say the pattern matched it.
		if res.Hidden != 0 {
			t.Errorf("%s: hidden %d, want nothing said of the hard-linked key", mode, res.Hidden)
		}
	}
}

func TestContextAndColumns(t *testing.T) {
	needRG(t)
	root := testfs.Workspace(t, map[string]string{
		"f.txt": "1\n2\nxx needle\n4\nneedle\n6\n7\n8\n9\nné needle\n",
	})
	p := newPolicy(t, root)
	res := call(t, p, Options{}, abi.SearchRequest{Pattern: "needle", ContextLines: 2})
	if len(res.Files) != 1 || len(res.Files[0].Matches) != 3 {
		t.Fatalf("%+v", res)
	}
	m := res.Files[0].Matches
	check := func(i, line, col int, before, after string) {
		t.Helper()
		if m[i].Line != line || m[i].Column != col || strings.Join(m[i].Before, "|") != before || strings.Join(m[i].After, "|") != after {
			t.Errorf("match %d: %+v", i, m[i])
		}
	}
	check(0, 3, 4, "1|2", "4|needle")
	check(1, 5, 1, "xx needle|4", "6|7")
	check(2, 10, 4, "8|9", "")
	res = call(t, p, Options{}, abi.SearchRequest{Pattern: "needle", MaxResults: 2})
	if res.Matches != 2 || !res.Truncated {
		t.Fatalf("cap: %+v", res)
	}
}

// A pattern neither rg nor Go's regexp takes is INVALID_ARGUMENT; one
// only Go's takes (\Q…\E) is searched by the host itself.
func TestBadRegex(t *testing.T) {
	needRG(t)
	p := newPolicy(t, testfs.Workspace(t, map[string]string{"a": "x\n", "b": "see a.b(c)\n"}))
	res := call(t, p, Options{}, abi.SearchRequest{Pattern: `a(b`})
	if res.Error == nil || res.Error.Code != abi.InvalidArgument || !strings.Contains(res.Error.Message, "literal: true") {
		t.Fatalf("want INVALID_ARGUMENT: %+v", res)
	}
	res = call(t, p, Options{}, abi.SearchRequest{Pattern: `\Qa.b(c)\E`})
	if res.Error != nil || res.Engine != "juju" || len(res.Files) != 1 || res.Files[0].Path != "b" || res.Files[0].Matches[0].Column != 5 {
		t.Fatalf("want b:1:5 found by the host's own search: %+v", res)
	}
}

// BenchmarkSearchGoTree is search_code's host half over Go's source tree:
// rg with the host's argument list, its JSON parsed, every file checked.
func BenchmarkSearchGoTree(b *testing.B) {
	needRG(b)
	src := filepath.Join(runtime.GOROOT(), "src")
	p, err := policy.New(policy.Config{Roots: []string{src}})
	if err != nil {
		b.Skip("no Go source tree:", err)
	}
	defer p.Close()
	fn := New(p, Options{})[0]
	hdr, _ := json.Marshal(abi.SearchRequest{Pattern: `func \w+Context\(`, MaxResults: 2000})
	var res abi.SearchResult
	for b.Loop() {
		out, _ := fn.Handle(context.Background(), hdr, nil)
		res = abi.SearchResult{}
		if err := json.Unmarshal(out, &res); err != nil || res.Error != nil {
			b.Fatal(err, res.Error)
		}
	}
	b.ReportMetric(float64(res.Matches), "matches")
}

// BenchmarkSearchGoTreeMany is the host's reading of matched files at
// scale: 10,000 matching lines with two context lines, and every matching
// line of the tree counted.
func BenchmarkSearchGoTreeMany(b *testing.B) {
	needRG(b)
	src := filepath.Join(runtime.GOROOT(), "src")
	p, err := policy.New(policy.Config{Roots: []string{src}})
	if err != nil {
		b.Skip("no Go source tree:", err)
	}
	defer p.Close()
	fn := New(p, Options{})[0]
	for _, bc := range []struct {
		name string
		req  abi.SearchRequest
	}{
		{"content", abi.SearchRequest{Pattern: `\berr\b`, ContextLines: 2}},
		{"count", abi.SearchRequest{Pattern: `\berr\b`, Mode: abi.SearchCount}},
		{"files", abi.SearchRequest{Pattern: `\berr\b`, Mode: abi.SearchFiles}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			hdr, _ := json.Marshal(bc.req)
			var res abi.SearchResult
			for b.Loop() {
				out, _ := fn.Handle(context.Background(), hdr, nil)
				res = abi.SearchResult{}
				if err := json.Unmarshal(out, &res); err != nil || res.Error != nil {
					b.Fatal(err, res.Error)
				}
			}
			b.ReportMetric(float64(res.Matches), "matches")
			b.ReportMetric(float64(len(res.Files)), "files")
		})
	}
}

// BenchmarkSearchGoTreeNative is BenchmarkSearchGoTree without rg: the
// host's own walk, opens and matching over Go's source tree.
func BenchmarkSearchGoTreeNative(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src")
	p, err := policy.New(policy.Config{Roots: []string{src}})
	if err != nil {
		b.Skip("no Go source tree:", err)
	}
	defer p.Close()
	fn := New(p, noRG)[0]
	hdr, _ := json.Marshal(abi.SearchRequest{Pattern: `func \w+Context\(`, MaxResults: 2000})
	var res abi.SearchResult
	for b.Loop() {
		out, _ := fn.Handle(context.Background(), hdr, nil)
		res = abi.SearchResult{}
		if err := json.Unmarshal(out, &res); err != nil || res.Error != nil || res.Engine != "juju" {
			b.Fatal(err, res.Error, res.Engine)
		}
	}
	b.ReportMetric(float64(res.Matches), "matches")
}

// BenchmarkSearchGoTreeRG is its baseline: `rg -n PATTERN .` run directly.
func BenchmarkSearchGoTreeRG(b *testing.B) {
	needRG(b)
	src := filepath.Join(runtime.GOROOT(), "src")
	for b.Loop() {
		cmd := exec.Command("rg", "-n", `func \w+Context\(`, ".")
		cmd.Dir = src
		if _, err := cmd.Output(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTimeCap: rg is stopped at the request's time cap and the answer says
// it is partial.
func TestTimeCap(t *testing.T) {
	needRG(t)
	src := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(src); err != nil {
		t.Skip("no Go source tree")
	}
	p := newPolicy(t, src)
	res := call(t, p, Options{}, abi.SearchRequest{Pattern: `\w+\s*\(\w*\)\s*\{`, TimeoutMs: 1, MaxResults: 1_000_000})
	if res.Error != nil || !res.Partial || res.Truncated {
		t.Fatalf("want partial: error %v, partial %v, truncated %v", res.Error, res.Partial, res.Truncated)
	}
}

// Every match of a pattern holds one of the texts needles names for it,
// and a pattern that can match without one gets none.
func TestNeedles(t *testing.T) {
	lines := []string{
		"package main", "//go:generate stringer", "//go:build ignore", "x //go:build linux ignore",
		"func Handler() {}", "aaab", "ab", "b", "", "needle in a haystack", "NEEDLE", "xyzxyz",
	}
	for _, c := range []struct {
		pattern string
		want    []string // nil: no needles
	}{
		{`^(package main|//go:generate[ \t]|//go:build[ \t].*ignore)`, []string{"package main", "//go:generate", "//go:build"}},
		{`func \w+\(`, []string{"func "}},
		{`(xyz)+`, []string{"xyz"}},
		{`(xyz){2}`, []string{"xyzxyz"}},
		{`\bfunc (Handler|handler2)\(`, []string{"func Handler(", "func handler2("}},
		{`a*b`, nil},
		{`(?i)needle`, nil},
		{`needle|b`, nil}, // b is too short to be worth a pass
		{`(needle)?hay`, []string{"hay"}},
		{`(needle)?ha`, nil},
		{`x?`, nil},
		{`\w+ in a \w+`, []string{" in a "}},
	} {
		pt, err := compilePattern(&abi.SearchRequest{Pattern: c.pattern})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range pt.needles {
			got = append(got, string(l))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: needles %q, want %q", c.pattern, got, c.want)
		}
		for _, l := range lines {
			if pt.first.MatchString(l) && got != nil && !slices.ContainsFunc(got, func(n string) bool { return strings.Contains(l, n) }) {
				t.Errorf("%q matches %q, which holds none of %q", c.pattern, l, got)
			}
		}
	}
}

// A file larger than the host reads whole is searched line by line, with
// the same answers as rg's.
func TestNativeLargeFile(t *testing.T) {
	needRG(t)
	var b strings.Builder
	filler := strings.Repeat("x", 99) + "\n"
	for i := 0; b.Len() <= nativeWholeFile; i++ {
		if i%40_000 == 7 {
			fmt.Fprintf(&b, "needle %d\n", i)
		}
		b.WriteString(filler)
	}
	b.WriteString("last needle")
	p := newPolicy(t, testfs.Workspace(t, map[string]string{"big.txt": b.String(), "small.txt": "needle\n"}))
	for _, req := range []abi.SearchRequest{
		{Pattern: "needle"},
		{Pattern: "needle", Mode: abi.SearchCount},
		{Pattern: "needle", Mode: abi.SearchFiles},
		{Pattern: `^needle \d+$`, ContextLines: 1},
	} {
		want, got := call(t, p, Options{}, req), call(t, p, noRG, req)
		want.Engine, got.Engine = "", ""
		sortFiles(&want)
		sortFiles(&got)
		if w, g := mustJSON(t, want), mustJSON(t, got); w != g {
			t.Errorf("%+v:\n rg   %.600s\n host %.600s", req, w, g)
		}
	}
}
