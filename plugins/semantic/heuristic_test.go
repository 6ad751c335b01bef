package semantic

import (
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

func TestScanFile(t *testing.T) {
	lang := func(n string) abi.Language { l, _ := abi.LanguageNamed(n); return l }
	for _, tc := range []struct {
		lang, body string
		want       []string // namePath kind line:column
	}{
		{"go", "package a\n\n/* 😀 */ type Server struct{}\n\nfunc (s *Server) Run() {}\nfunc New() *Server { return nil }\ntype (\n\tOther int\n)\n",
			[]string{"Server struct 3:14", "Server.Run method 5:18", "New function 6:6", "Other type 8:2"}},
		{"python", "class Server:\n    def run(self):  # 😀\n        pass\n\ndef helper():\n    pass\nX = 1\n",
			[]string{"Server class 1:7", "Server.run method 2:9", "helper function 5:5", "X variable 7:1"}},
		{"typescript", "export class Box {\n  open(): void {\n  }\n}\nexport function make() {}\nconst add = (a: number) => a\n",
			[]string{"Box class 1:14", "Box.open method 2:3", "make function 5:17", "add function 6:7"}},
		{"rust", "pub struct S;\nimpl S {\n    pub fn go(&self) {}\n}\nfn main() {}\n",
			[]string{"S struct 1:12", "S class 2:6", "S.go method 3:12", "main function 5:4"}},
	} {
		var got []string
		for _, d := range scanFile("f", tc.body, lang(tc.lang)) {
			got = append(got, d.NamePath+" "+d.Kind+" "+itoa(d.Line)+":"+itoa(d.Column))
		}
		if strings.Join(got, ", ") != strings.Join(tc.want, ", ") {
			t.Errorf("%s:\n got  %v\n want %v", tc.lang, got, tc.want)
		}
	}
}

func itoa(n int) string {
	s := ""
	for n >= 10 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return string(rune('0'+n)) + s
}

func TestMatchNamePath(t *testing.T) {
	for _, tc := range []struct {
		namePath, container string
		query               string
		fuzzy, want         bool
	}{
		{"Server.Run", "", "Server.Run", false, true},
		{"Run", "example.com/m/lib.Server", "Server.Run", false, true},
		{"(*Server).Run", "", "Server.Run", false, true},
		{"Run", "", "Server.Run", false, false},
		{"Runner", "", "Run", false, false},
		{"Runner", "", "run", true, true},
		{"Server.Run", "", "lib.Server.Run", false, false},
	} {
		c, n := splitNamePath(tc.query)
		if got := matchNamePath(tc.namePath, tc.container, c, n, tc.fuzzy); got != tc.want {
			t.Errorf("%q in %q ~ %q: %v", tc.namePath, tc.container, tc.query, got)
		}
	}
}

func TestIdentifierAt(t *testing.T) {
	line := "\t/* 😀😀 */ s := lib.NewServer(\"app\")"
	for col, want := range map[int]string{20: "NewServer", 28: "NewServer", 29: "NewServer", 12: "s", 1: "", 16: "lib"} {
		if got := identifierAt(line, col); got != want {
			t.Errorf("column %d: %q, want %q", col, got, want)
		}
	}
}

// Identifiers may be spelt in any script: the index finds their
// definitions under their whole name, and a position on one names it.
func TestHeuristicNamesInAnyScript(t *testing.T) {
	lang := func(n string) abi.Language { l, _ := abi.LanguageNamed(n); return l }
	for _, tc := range []struct {
		lang, body string
		want       []string // namePath kind line:column
	}{
		{"go", "package a\n\nfunc Größe() int { return 1 }\ntype 名前 struct{}\nfunc getÜber() {}\nfunc (n *名前) 走る() {}\n",
			[]string{"Größe function 3:6", "名前 struct 4:6", "getÜber function 5:6", "名前.走る method 6:14"}},
		{"python", "class Café:\n    def 計算(self):\n        pass\n",
			[]string{"Café class 1:7", "Café.計算 method 2:9"}},
	} {
		var got []string
		for _, d := range scanFile("f", tc.body, lang(tc.lang)) {
			got = append(got, d.NamePath+" "+d.Kind+" "+itoa(d.Line)+":"+itoa(d.Column))
		}
		if strings.Join(got, ", ") != strings.Join(tc.want, ", ") {
			t.Errorf("%s:\n got  %v\n want %v", tc.lang, got, tc.want)
		}
	}
	line := "func Use() 名前 { return getÜber() }"
	for col, want := range map[int]string{12: "名前", 13: "名前", 14: "名前", 26: "getÜber", 29: "getÜber"} {
		if got := identifierAt(line, col); got != want {
			t.Errorf("column %d of %q: %q, want %q", col, line, got, want)
		}
	}
}
