package lsp

import (
	"encoding/json"
	"reflect"
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
	tree, flat, err := decodeSymbols(json.RawMessage(`[{"name":"S","kind":23,"range":{"start":{"line":0,"character":0},"end":{"line":3,"character":1}},"selectionRange":{"start":{"line":0,"character":5},"end":{"line":0,"character":6}},"children":[{"name":"F","kind":8}]}]`))
	if err != nil || len(tree) != 1 || flat != nil || len(tree[0].Children) != 1 {
		t.Fatalf("tree: %+v %+v %v", tree, flat, err)
	}
	tree, flat, err = decodeSymbols(json.RawMessage(`[{"name":"S","kind":23,"containerName":"p","location":{"uri":"file:///a.go","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}}]`))
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
		tree, flat, err := decodeSymbols(json.RawMessage(raw))
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
		if tree, flat, err := decodeSymbols(raw); err == nil {
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
