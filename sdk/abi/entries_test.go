package abi

import (
	"reflect"
	"testing"
)

func TestEntriesRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ents  []Entry
		plain bool
	}{
		{"none", []Entry{}, true},
		{"plain", []Entry{
			{Name: "a.go", Path: "src/a.go", Type: TypeFile, Size: 12, ModTime: "2026-01-02T03:04:05Z"},
			{Name: "sub", Path: "src/sub", Type: TypeDir, ModTime: "2026-01-02T03:04:05Z"},
			{Name: "l", Path: "src/l", Type: TypeSymlink, Size: 1 << 40, ModTime: "x", Target: "src/a.go"},
			{Name: "fifo", Path: "src/fifo", Type: TypeOther, Size: -1},
		}, true},
		{"quote", []Entry{{Name: `a"b`, Path: `a"b`, Type: TypeFile}}, false},
		{"html", []Entry{{Name: "a<b", Path: "a<b", Type: TypeFile}}, false},
		{"utf8", []Entry{{Name: "é", Path: "é", Type: TypeFile}}, false},
		{"control", []Entry{{Name: "a\nb", Path: "a\nb", Type: TypeFile}}, false},
		{"target", []Entry{{Name: "l", Path: "l", Type: TypeSymlink, Target: `x\y`}}, false},
		{"long", []Entry{{Name: string(make([]byte, 300)), Type: TypeFile}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, plain, err := DecodeEntries(AppendEntries(nil, tc.ents))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.ents) || plain != tc.plain {
				t.Fatalf("got %+v plain=%v, want %+v plain=%v", got, plain, tc.ents, tc.plain)
			}
		})
	}
}

func TestDecodeEntriesRejectsJunk(t *testing.T) {
	good := AppendEntries(nil, []Entry{{Name: "a", Path: "a", Type: TypeFile, Size: 300, ModTime: "m"}})
	for name, b := range map[string][]byte{
		"empty":        nil,
		"bad type":     {1, 1, 9, 0, 0, 0, 0, 0},
		"cut size":     {1, 1, 0, 0x80, 0, 0, 0, 0},
		"cut string":   good[:len(good)-2],
		"long string":  {1, 1, 0, 0, 0x7f, 'a', 0, 0},
		"huge varint":  {1, 1, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		"missing tail": {1, 1, 0, 0, 1, 'a', 0, 0},
		"huge count":   {1, 0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0, 0, 0, 0, 0},
		"short count":  {1, 2, 0, 0, 0, 0, 0, 0},
		"extra bytes":  append(good, 0),
	} {
		if ents, _, err := DecodeEntries(b); err == nil {
			t.Errorf("%s: decoded %+v", name, ents)
		}
	}
}

func FuzzDecodeEntries(f *testing.F) {
	f.Add(AppendEntries(nil, []Entry{{Name: "a", Path: "b/a", Type: TypeDir, Size: 3, ModTime: "t", Target: "x"}}))
	f.Add([]byte{0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		ents, _, err := DecodeEntries(b)
		if err != nil {
			return
		}
		// What decodes encodes back to what decodes the same.
		again, _, err := DecodeEntries(AppendEntries(nil, ents))
		if err != nil || !reflect.DeepEqual(again, ents) {
			t.Fatalf("round trip: %v\n%+v\n%+v", err, ents, again)
		}
	})
}
