package lsp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestDecodeLocations(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want int
	}{
		{`null`, 0},
		{`{"uri":"file:///a.go","range":{"start":{"line":1,"character":2},"end":{"line":1,"character":3}}}`, 1},
		{`[{"uri":"file:///a.go","range":{"start":{"line":1,"character":2},"end":{"line":1,"character":3}}}]`, 1},
		{`[{"targetUri":"file:///b.go","targetRange":{"start":{"line":0,"character":0},"end":{"line":9,"character":1}},"targetSelectionRange":{"start":{"line":3,"character":5},"end":{"line":3,"character":8}}}]`, 1},
		{`[]`, 0},
	} {
		got, err := decodeLocations(json.RawMessage(tc.raw))
		if err != nil || len(got) != tc.want {
			t.Errorf("decodeLocations(%s) = %v, %v; want %d", tc.raw, got, err, tc.want)
		}
	}
	got, _ := decodeLocations(json.RawMessage(`[{"targetUri":"file:///b.go","targetRange":{"start":{"line":0,"character":0},"end":{"line":9,"character":1}},"targetSelectionRange":{"start":{"line":3,"character":5},"end":{"line":3,"character":8}}}]`))
	if got[0].Range.Start.Line != 3 || got[0].Range.Start.Character != 5 {
		t.Errorf("a link's selection range is its place: %+v", got[0])
	}
}

func TestDecodeSymbols(t *testing.T) {
	tree, flat, _, err := decodeSymbols(json.RawMessage(`[{"name":"S","kind":23,"range":{"start":{"line":0,"character":0},"end":{"line":3,"character":1}},"selectionRange":{"start":{"line":0,"character":5},"end":{"line":0,"character":6}},"children":[{"name":"F","kind":8}]}]`), 10)
	if err != nil || len(tree) != 1 || flat != nil || len(tree[0].Children) != 1 {
		t.Fatalf("tree: %+v %+v %v", tree, flat, err)
	}
	tree, flat, _, err = decodeSymbols(json.RawMessage(`[{"name":"S","kind":23,"containerName":"p","location":{"uri":"file:///a.go","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}}]`), 10)
	if err != nil || tree != nil || len(flat) != 1 || flat[0].ContainerName != "p" {
		t.Fatalf("flat: %+v %+v %v", tree, flat, err)
	}
	// One pass reads both shapes as decoding each whole would.
	for _, raw := range []string{
		`[]`, `null`,
		`[{"name":"A","detail":"func()","kind":12,"range":{"start":{"line":1,"character":0},"end":{"line":9,"character":1}},"selectionRange":{"start":{"line":1,"character":5},"end":{"line":1,"character":6}},"children":[{"name":"b","kind":13,"children":[{"name":"c","kind":8}]}]},{"name":"D","kind":5}]`,
		`[{"name":"S","kind":23,"containerName":"p","location":{"uri":"file:///a.go","range":{"start":{"line":2,"character":3},"end":{"line":2,"character":4}}}},{"name":"T","kind":5},{"name":"U","kind":6,"location":null},{"name":"V","kind":6,"location":{"uri":"file:///b.go"}}]`,
		`[{"name":"W","kind":6,"location":null,"children":[{"name":"x"}]}]`,
	} {
		tree, flat, _, err := decodeSymbols(json.RawMessage(raw), 10)
		wantTree, wantFlat, wantErr := decodeSymbolsWhole(json.RawMessage(raw))
		if !reflect.DeepEqual(tree, wantTree) || !reflect.DeepEqual(flat, wantFlat) || (err == nil) != (wantErr == nil) {
			t.Errorf("%s:\n got %+v %+v %v\nwant %+v %+v %v", raw, tree, flat, err, wantTree, wantFlat, wantErr)
		}
	}
}

// decodeSymbolsWhole is what decodeSymbols does, the long way: the first
// item probed, then the whole answer decoded as the shape it names.
func decodeSymbolsWhole(raw json.RawMessage) ([]documentSymbol, []symbolInformation, error) {
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || len(items) == 0 {
		return nil, nil, err
	}
	if _, flat := items[0]["location"]; flat {
		var out []symbolInformation
		err := json.Unmarshal(raw, &out)
		return nil, out, err
	}
	var out []documentSymbol
	err := json.Unmarshal(raw, &out)
	return out, nil, err
}

func TestURIs(t *testing.T) {
	for _, p := range []string{"/tmp/a b/ü😀.go", "/x/%41.go", "/plain.go"} {
		back, ok := uriPath(fileURI(p))
		if !ok || back != p {
			t.Errorf("%q → %q → %q, %v", p, fileURI(p), back, ok)
		}
	}
	for _, u := range []string{"untitled:1", "https://x/y", "file://host/x", "::"} {
		if _, ok := uriPath(u); ok {
			t.Errorf("uriPath(%q) accepted", u)
		}
	}
}

// FuzzDecodeAnswers feeds arbitrary server answers to juju's decoding of
// them (FuzzReadMessage fuzzes the framing): nothing may panic, and every position
// converts to a column of at least 1.
func FuzzDecodeAnswers(f *testing.F) {
	f.Add([]byte(`[{"targetUri":"file:///b.go","targetRange":{"start":{"line":0,"character":0},"end":{"line":9,"character":1}}}]`), "a😀b")
	f.Add([]byte(`{"uri":"file:///a.go","range":{"start":{"line":-1,"character":-7},"end":{"line":1,"character":99}}}`), "")
	f.Add([]byte(`[{"name":"S","kind":99,"children":[{"name":"T","kind":-1}]}]`), "x")
	f.Add([]byte(`[{"range":{"start":{"line":0,"character":3}},"severity":7,"code":{"x":1},"message":"m"}]`), "\xff\xfe")
	f.Fuzz(func(t *testing.T, raw []byte, line string) {
		tx := newText(line + "\n" + line)
		check := func(r lspRange) {
			for _, p := range []position{r.Start, r.End} {
				for _, enc := range []encoding{utf16, utf8Units, utf32} {
					if c := fromServer(tx.line(p.Line), p.Character, enc); c < 1 {
						t.Fatalf("column %d < 1", c)
					}
				}
			}
		}
		if locs, err := decodeLocations(raw); err == nil {
			for _, l := range locs {
				check(l.Range)
				uriPath(l.URI)
			}
		}
		if tree, flat, _, err := decodeSymbols(raw, 5); err == nil {
			var walk func([]documentSymbol)
			walk = func(ds []documentSymbol) {
				for _, d := range ds {
					check(d.Range)
					check(d.SelectionRange)
					kindName(d.Kind)
					walk(d.Children)
				}
			}
			walk(tree)
			for _, s := range flat {
				check(s.Location.Range)
				kindName(s.Kind)
			}
		}
		var diags []diagnostic
		if json.Unmarshal(raw, &diags) == nil {
			for _, d := range diags {
				check(d.Range)
				severityName(d.Severity)
				codeText(d.Code)
			}
		}
	})
}

// A symbol answer is decoded only as far as juju keeps it, whatever its
// size: gopls answers a file of 200,000 declarations with 44 MB, which
// took 5 s to decode whole, past the call's deadline when it came late.
// What decoding allocates is the measure (a time would be flaky): an
// answer of 50,000 symbols costs what 1,000 do.
func TestDecodeSymbolsReadsWhatItKeeps(t *testing.T) {
	sym := func(i int, children string) string {
		r := fmt.Sprintf(`{"start":{"line":%d,"character":4},"end":{"line":%d,"character":15}}`, i, i)
		return fmt.Sprintf(`{"name":"a%06d","detail":"int","kind":13,%s"range":%s,"selectionRange":%s}`, i, children, r, r)
	}
	list := func(n int) string {
		items := make([]string, n)
		for i := range items {
			items[i] = sym(i, "")
		}
		return "[" + strings.Join(items, ",") + "]"
	}
	const max = 1000
	allocated := func(raw []byte) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		tree, _, cut, err := decodeSymbols(raw, max)
		runtime.ReadMemStats(&after)
		if err != nil || len(tree) != max || !cut {
			t.Fatalf("%d bytes: %d symbols, cut %v, %v", len(raw), len(tree), cut, err)
		}
		if tree[max-1].Name != fmt.Sprintf("a%06d", max-1) || tree[max-1].Range.Start.Line != max-1 {
			t.Fatalf("symbol %d: %+v", max-1, tree[max-1])
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, big := allocated([]byte(list(max+1))), allocated([]byte(list(50*max)))
	if big > 2*small+1<<20 {
		t.Errorf("decoding 50,000 symbols allocated %d bytes, 1,001 took %d: the answer was decoded past what is kept", big, small)
	}

	// Children past the budget are stepped over, and the fields after them
	// still read. Every top-level symbol comes before any child: read
	// depth first, a parent of 3,000 left its sibling out.
	raw := `[` + sym(7, `"children":`+list(3*max)+`,`) + `,` + sym(8, "") + `]`
	tree, _, cut, err := decodeSymbols([]byte(raw), max)
	if err != nil || !cut || len(tree) != 2 || len(tree[0].Children) != max-2 || tree[0].Range.Start.Line != 7 || tree[0].Name != "a000007" || tree[1].Name != "a000008" {
		t.Fatalf("a parent of 3,000 and its sibling: %d symbols, cut %v, %v", len(tree), cut, err)
	}
}

// A tree is read a level at a time: the top-level symbols, then their
// children, then their grandchildren, each level in order, until the
// budget is spent. A class of 400 methods, each with its parameters and
// locals (as pyright lists them), used the budget depth first, and the
// functions and classes after it were not listed, at any depth asked.
func TestDecodeSymbolsLevelByLevel(t *testing.T) {
	sym := func(name, children string) string {
		r := `{"start":{"line":1,"character":0},"end":{"line":1,"character":1}}`
		if children != "" {
			children = `"children":` + children + `,`
		}
		return fmt.Sprintf(`{"name":%q,"kind":12,%s"range":%s,"selectionRange":%s}`, name, children, r, r)
	}
	var methods []string
	for i := range 400 {
		methods = append(methods, sym(fmt.Sprintf("m%d", i), "["+sym("self", "")+","+sym("x", "")+"]"))
	}
	raw := "[" + sym("Big", "["+strings.Join(methods, ",")+"]") + "," + sym("after", "[]") + "," + sym("Small", "["+sym("s", "null")+"]") + "]"
	tree, _, cut, err := decodeSymbols([]byte(raw), 500)
	if err != nil || !cut {
		t.Fatalf("cut %v, %v", cut, err)
	}
	var names []string
	for _, s := range tree {
		names = append(names, s.Name)
	}
	if strings.Join(names, " ") != "Big after Small" {
		t.Fatalf("top level: %q", names)
	}
	// 3 top-level, then 400 methods and s, then 96 of the methods' own.
	if len(tree[0].Children) != 400 || len(tree[2].Children) != 1 || tree[2].Children[0].Name != "s" || tree[1].Children == nil {
		t.Fatalf("children: %d of Big, %+v of after, %+v of Small", len(tree[0].Children), tree[1].Children, tree[2].Children)
	}
	n := 0
	for _, m := range tree[0].Children {
		n += len(m.Children)
	}
	if n != 96 || len(tree[0].Children[0].Children) != 2 || tree[0].Children[0].Children[1].Name != "x" {
		t.Fatalf("grandchildren: %d, the first method's %+v", n, tree[0].Children[0].Children)
	}
}
