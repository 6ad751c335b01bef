package pluginbuild

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// fileText mirrors the structured content of read_file.
type fileText struct {
	Path       string `json:"path"`
	Content    string `json:"content"`
	FirstLine  int    `json:"firstLine"`
	LineCount  int    `json:"lineCount"`
	TotalLines int    `json:"totalLines"`
	Truncated  bool   `json:"truncated"`
	NextOffset int    `json:"nextOffset"`
	Size       int64  `json:"size"`
	Binary     bool   `json:"binary"`
	FileType   string `json:"fileType"`
	MimeType   string `json:"mimeType"`
	Error      *abi.Error
}

func lines(n int, format string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, format+"\n", i)
	}
	return b.String()
}

// readWorkspace is the folder every read test works on.
func readWorkspace(t *testing.T) (string, map[string]string) {
	files := map[string]string{
		"notes.txt":     lines(30, "line %d"),
		"big.txt":       lines(5000, "this is line number %d of a long file"),
		"wide.txt":      lines(3000, "%059d"), // 60-byte lines: 100 KB before 2000 lines
		"oneline.txt":   strings.Repeat("x", 150<<10),
		"noeol.txt":     "a\nb",
		"crlf.txt":      "a\r\nb\r\n",
		"empty.txt":     "",
		"sub/inner.go":  "package sub\n",
		"link.txt":      "->notes.txt",
		".env":          "TOKEN=hunter2\n",
		"keys/id_rsa":   "-----BEGIN OPENSSH PRIVATE KEY-----\n",
		"src/a_test.go": "package a\n",
		"src/b_test.go": "package b\n",
		"src/c.go":      "package c\n",
	}
	root := workspace(t, files)
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01")
	if err := os.WriteFile(filepath.Join(root, "pic.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	return root, files
}

func TestReadFile(t *testing.T) {
	root, files := readWorkspace(t)
	p := load(t, "plugins/core", root, []abi.Capability{abi.CapFSRead}, nil)

	t.Run("whole", func(t *testing.T) {
		got, res := p.ok(t, "read_file", `{"path":"notes.txt"}`)
		if got != files["notes.txt"] {
			t.Fatalf("text %q", got)
		}
		ft := structured[fileText](t, res)
		if ft.Path != "notes.txt" || ft.FirstLine != 1 || ft.LineCount != 30 || ft.TotalLines != 30 || ft.Truncated || ft.NextOffset != 0 || ft.Content != "" {
			t.Fatalf("structured %+v", ft)
		}
	})
	t.Run("range", func(t *testing.T) {
		got, res := p.ok(t, "read_file", `{"path":"notes.txt","offset":10,"limit":3}`)
		want := "line 10\nline 11\nline 12\n\n[Showing lines 10-12 of 30. Call read_file with offset 13 to read on.]\n"
		if got != want {
			t.Fatalf("text %q, want %q", got, want)
		}
		ft := structured[fileText](t, res)
		if ft.FirstLine != 10 || ft.LineCount != 3 || ft.TotalLines != 30 || ft.Truncated || ft.NextOffset != 13 {
			t.Fatalf("structured %+v", ft)
		}
	})
	t.Run("range to the end", func(t *testing.T) {
		got, _ := p.ok(t, "read_file", `{"path":"notes.txt","offset":29,"limit":5}`)
		if got != "line 29\nline 30\n" {
			t.Fatalf("text %q", got)
		}
	})
	t.Run("numbered", func(t *testing.T) {
		got, _ := p.ok(t, "read_file", `{"path":"notes.txt","offset":9,"limit":2,"numbered":true}`)
		if !strings.HasPrefix(got, "     9\tline 9\n    10\tline 10\n") {
			t.Fatalf("numbered %q", got)
		}
	})
	t.Run("no final newline and CRLF kept", func(t *testing.T) {
		if got, _ := p.ok(t, "read_file", `{"path":"noeol.txt","numbered":true}`); got != "     1\ta\n     2\tb\n" {
			t.Fatalf("noeol %q", got)
		}
		got, res := p.ok(t, "read_file", `{"path":"crlf.txt"}`)
		if ft := structured[fileText](t, res); got != "a\r\nb\r\n" || ft.LineCount != 2 {
			t.Fatalf("crlf %q %+v", got, ft)
		}
	})
	t.Run("empty", func(t *testing.T) {
		got, res := p.ok(t, "read_file", `{"path":"empty.txt"}`)
		if !strings.Contains(got, "empty") || structured[fileText](t, res).LineCount != 0 {
			t.Fatalf("empty: %q", got)
		}
	})
	t.Run("truncated at 2000 lines and readable on", func(t *testing.T) {
		var all strings.Builder
		for offset, reads := 1, 0; offset > 0; reads++ {
			got, res := p.ok(t, "read_file", fmt.Sprintf(`{"path":"big.txt","offset":%d}`, offset))
			ft := structured[fileText](t, res)
			all.WriteString(content(got))
			if ft.NextOffset == 0 {
				if ft.Truncated || strings.Contains(got, "Truncated") {
					t.Fatalf("the last read is not truncated: %+v", ft)
				}
				break
			}
			if !ft.Truncated || ft.LineCount != 2000 || ft.TotalLines != 5000 {
				t.Fatalf("read %d: %+v", reads, ft)
			}
			notice := fmt.Sprintf("[Truncated: showing lines %d-%d of 5000 (a read stops at 2000 lines or 87.9 KB). Call read_file with path \"big.txt\" and offset %d to read the rest.]", offset, offset+1999, offset+2000)
			if !strings.HasSuffix(got, "\n\n"+notice+"\n") {
				t.Fatalf("notice: %q", got[len(got)-300:])
			}
			offset = ft.NextOffset
		}
		if all.String() != files["big.txt"] {
			t.Fatal("reading on by offset lost or repeated lines")
		}
	})
	t.Run("truncated at 90,000 bytes on a line boundary", func(t *testing.T) {
		var all strings.Builder
		for offset := 1; offset > 0; {
			got, res := p.ok(t, "read_file", fmt.Sprintf(`{"path":"wide.txt","offset":%d}`, offset))
			ft := structured[fileText](t, res)
			text := content(got)
			if len(text) > 90_000 || !strings.HasSuffix(text, "\n") || len(text) != 60*ft.LineCount {
				t.Fatalf("cut inside a line or over the cap: %d bytes, %d lines", len(text), ft.LineCount)
			}
			if ft.NextOffset != 0 && (!ft.Truncated || ft.LineCount >= 2000) {
				t.Fatalf("a cut by size must be reported: %+v", ft.LineCount)
			}
			all.WriteString(text)
			offset = ft.NextOffset
		}
		if all.String() != files["wide.txt"] {
			t.Fatal("reading on by offset lost or repeated lines")
		}
	})
	t.Run("a line longer than the cap", func(t *testing.T) {
		got, res := p.ok(t, "read_file", `{"path":"oneline.txt"}`)
		ft := structured[fileText](t, res)
		if !ft.Truncated || ft.LineCount != 1 || len(strings.TrimSuffix(content(got), "\n")) != 90_000 || !strings.Contains(got, "byteOffset 90000 to read on inside it") {
			t.Fatalf("long line: %+v %q", ft.LineCount, got[len(got)-200:])
		}
	})
	t.Run("binary described not dumped", func(t *testing.T) {
		got, res := p.ok(t, "read_file", `{"path":"pic.png"}`)
		ft := structured[fileText](t, res)
		if strings.ContainsRune(got, 0) || !strings.Contains(got, "binary file (PNG image, image/png, 20 B)") || !strings.Contains(got, "read_image") {
			t.Fatalf("binary text %q", got)
		}
		if !ft.Binary || ft.MimeType != "image/png" || ft.Content != "" || ft.Size != 20 {
			t.Fatalf("binary structured %+v", ft)
		}
	})
	t.Run("errors", func(t *testing.T) {
		if msg := p.fail(t, "read_file", `{"path":"notes.txt","offset":500}`, abi.InvalidArgument); !strings.Contains(msg, "30 lines") {
			t.Errorf("offset past the end: %q", msg)
		}
		p.fail(t, "read_file", `{"path":"nope.txt"}`, abi.NotFound)
		p.fail(t, "read_file", `{"path":"sub"}`, abi.InvalidArgument)
		p.fail(t, "read_file", `{"path":".env"}`, abi.SecretDenied)
		p.fail(t, "read_file", `{"path":"keys/../keys/id_rsa"}`, abi.SecretDenied)
		p.fail(t, "read_file", `{"path":"../outside.txt"}`, abi.PathDenied)
		p.fail(t, "read_file", `{"path":"notes.txt","offset":0}`, abi.InvalidArgument)
		if msg := p.fail(t, "read_file", `{"path":"notes.txt","lines":3}`, abi.InvalidArgument); !strings.Contains(msg, `unknown argument "lines"`) {
			t.Errorf("unknown argument: %q", msg)
		}
		p.fail(t, "read_file", `{}`, abi.InvalidArgument)
	})
}

// readFiles mirrors the structured content of read_files.
type readFiles struct {
	Files  []fileText `json:"files"`
	Read   int        `json:"read"`
	Failed int        `json:"failed"`
}

func TestReadFiles(t *testing.T) {
	root, _ := readWorkspace(t)
	p := load(t, "plugins/core", root, []abi.Capability{abi.CapFSRead}, nil)

	got, res := p.ok(t, "read_files", `{"paths":["notes.txt","missing.txt",".env","sub/inner.go"],"numbered":true}`)
	for _, want := range []string{
		"==> notes.txt <==\n     1\tline 1\n",
		"==> missing.txt <==\nNOT_FOUND: ",
		"==> .env <==\nSECRET_DENIED: ",
		"==> sub/inner.go <==\n     1\tpackage sub\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("text lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "hunter2") {
		t.Fatal("a secret leaked")
	}
	rf := structured[readFiles](t, res)
	if rf.Read != 2 || rf.Failed != 2 || len(rf.Files) != 4 || rf.Files[1].Error == nil || rf.Files[1].Error.Code != abi.NotFound ||
		rf.Files[2].Error.Code != abi.SecretDenied || rf.Files[3].LineCount != 1 {
		t.Fatalf("structured %+v", rf)
	}

	if msg := p.fail(t, "read_files", `{"paths":["x","y"]}`, abi.NotFound); !strings.Contains(msg, "none of the 2 paths") {
		t.Errorf("all failed: %q", msg)
	}
	p.fail(t, "read_files", `{"paths":[]}`, abi.InvalidArgument)
	many := `"a"` + strings.Repeat(`,"a"`, 50)
	p.fail(t, "read_files", `{"paths":[`+many+`]}`, abi.InvalidArgument)

	// Many files share the size cap.
	paths := `"big.txt"` + strings.Repeat(`,"big.txt"`, 9)
	got, res = p.ok(t, "read_files", `{"paths":[`+paths+`]}`)
	rf = structured[readFiles](t, res)
	for _, f := range rf.Files {
		if !f.Truncated || f.NextOffset == 0 {
			t.Fatalf("each big file must be cut: %+v", f.LineCount)
		}
	}
	if len(got) > 100_000 {
		t.Fatalf("read_files returned %d bytes of text, over the shared cap", len(got))
	}
}

func TestFileInfo(t *testing.T) {
	root, files := readWorkspace(t)
	p := load(t, "plugins/core", root, []abi.Capability{abi.CapFSRead}, nil)
	type info struct {
		Path, Type, ModTime, Mode, SHA256, Link string
		Size                                    int64
	}
	got, res := p.ok(t, "file_info", `{"path":"notes.txt"}`)
	fi := structured[info](t, res)
	sum := sha256.Sum256([]byte(files["notes.txt"]))
	if fi.SHA256 != hex.EncodeToString(sum[:]) || fi.Type != "file" || fi.Size != int64(len(files["notes.txt"])) || fi.Mode != "-rw-r--r--" || fi.Path != "notes.txt" {
		t.Fatalf("file_info %+v", fi)
	}
	if _, err := time.Parse(time.RFC3339, fi.ModTime); err != nil {
		t.Errorf("modTime %q: %v", fi.ModTime, err)
	}
	if !strings.Contains(got, "sha256: "+fi.SHA256) || !strings.Contains(got, "type: file") {
		t.Errorf("text %q", got)
	}

	_, res = p.ok(t, "file_info", `{"path":"link.txt"}`)
	if fi := structured[info](t, res); fi.Link != "notes.txt" {
		t.Errorf("link: %+v", fi)
	}
	_, res = p.ok(t, "file_info", `{"path":"sub"}`)
	if fi := structured[info](t, res); fi.Type != "dir" || fi.SHA256 != "" {
		t.Errorf("dir: %+v", fi)
	}
	p.fail(t, "file_info", `{"path":".env"}`, abi.SecretDenied)
	p.fail(t, "file_info", `{"path":"gone"}`, abi.NotFound)
}

type entry struct {
	Name, Path, Type, ModTime, Target string
	Size                              int64
}

func TestListDirectory(t *testing.T) {
	root, _ := readWorkspace(t)
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("build/\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "build"), 0o755)
	p := load(t, "plugins/core", root, []abi.Capability{abi.CapFSRead}, nil)

	got, res := p.ok(t, "list_directory", `{}`)
	for _, want := range []string{"sub/\n", "notes.txt  (", "link.txt -> notes.txt\n", "excluded by .gitignore", "withheld by the workspace policy"} {
		if !strings.Contains(got, want) {
			t.Errorf("listing lacks %q:\n%s", want, got)
		}
	}
	for _, hidden := range []string{".env", "build/"} {
		if strings.Contains(got, hidden) {
			t.Errorf("listing shows %s:\n%s", hidden, got)
		}
	}
	l := structured[struct {
		Path    string
		Entries []entry
		Hidden  int
		Ignored int
	}](t, res)
	if l.Path != "." || l.Hidden == 0 || l.Ignored != 1 || len(l.Entries) == 0 {
		t.Fatalf("structured %+v", l)
	}
	all, _ := p.ok(t, "list_directory", `{"path":".","includeIgnored":true}`)
	if !strings.Contains(all, "build/") || strings.Contains(all, ".env") {
		t.Errorf("includeIgnored: %s", all)
	}
	p.fail(t, "list_directory", `{"path":"nope"}`, abi.NotFound)
}

func TestGlobFiles(t *testing.T) {
	root, _ := readWorkspace(t)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "src/a_test.go"), old, old)
	p := load(t, "plugins/core", root, []abi.Capability{abi.CapFSRead}, nil)

	byName, _ := p.ok(t, "glob_files", `{"pattern":"**/*_test.go"}`)
	if byName != "src/a_test.go\nsrc/b_test.go\n[2 matches.]\n" {
		t.Fatalf("by name %q", byName)
	}
	byTime, _ := p.ok(t, "glob_files", `{"pattern":"**/*_test.go","sortBy":"mtime"}`)
	if byTime != "src/b_test.go\nsrc/a_test.go\n[2 matches.]\n" {
		t.Fatalf("sortBy mtime must put the newest first: %q", byTime)
	}
	got, res := p.ok(t, "glob_files", `{"pattern":"**/*.go","limit":1}`)
	g := structured[struct {
		Files     []entry
		Total     int
		Truncated bool
	}](t, res)
	if !g.Truncated || g.Total != 4 || len(g.Files) != 1 || !strings.Contains(got, "Showing matches 1 to 1 of 4") {
		t.Fatalf("limit: %+v %q", g, got)
	}
	if all, _ := p.ok(t, "glob_files", `{"pattern":"**/*"}`); strings.Contains(all, ".env") || strings.Contains(all, "id_rsa") {
		t.Fatalf("glob leaks secrets: %s", all)
	}
	if none, _ := p.ok(t, "glob_files", `{"pattern":"**/*.rs"}`); !strings.Contains(none, "No files match") {
		t.Fatalf("no match: %q", none)
	}
	p.fail(t, "glob_files", `{"pattern":"*.go","sortBy":"size"}`, abi.InvalidArgument)
}

// Without the fs.read grant, the core plugin gets CAPABILITY_DENIED from
// the host and passes it on.
func TestReadWithoutGrant(t *testing.T) {
	root, _ := readWorkspace(t)
	p := load(t, "plugins/core", root, nil, nil)
	p.fail(t, "read_file", `{"path":"notes.txt"}`, abi.CapabilityDenied)
}

// content is a read's text without the notice juju appends after a blank
// line ("\n\n[…]\n") when it cut the read.
func content(text string) string {
	if i := strings.LastIndex(text, "\n\n["); i >= 0 && strings.HasSuffix(text, "]\n") {
		return text[:i+1]
	}
	return text
}
