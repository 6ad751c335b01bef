package discover

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// decodeResult reads what encoding/json reads, and refuses what it
// refuses, for outputs within its bounds.
func TestDecodeResultAsEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{"tasks":[{"name":"a","runner":"make","command":"make a","cwd":".","file":"Makefile","line":2,"kind":"build"}],"warnings":[{"file":"x","message":"bad"}]}`,
		`{"tasks":null}`,
		`{"tasks":[]}`,
		` { "Tasks" : [ {"name":"a"} ] , "other": {"x":[1,2]} } `,
		`{"error":{"code":"INTERNAL","message":"no"},"tasks":[]}`,
		`{"tasks":[{"name":"a"}],"tasks":[{"name":"b"},{"name":"c"}]}`,
		`{"tasks":[{"name":1}]}`,
		`{"tasks":{}}`,
		`{"tasks":[]}{}`,
		`{"tasks":[}`,
		`[]`,
		``,
	} {
		var want abi.DiscoverResult
		werr := json.Unmarshal([]byte(in), &want)
		got, gerr := decodeResult([]byte(in))
		if (werr != nil) != (gerr != nil) {
			t.Errorf("%s: error %v, encoding/json's %v", in, gerr, werr)
			continue
		}
		if werr != nil {
			continue
		}
		if want.Tasks == nil && got.Tasks != nil && len(got.Tasks) == 0 {
			got.Tasks = nil
		}
		if !reflect.DeepEqual(got.DiscoverResult, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", in, got.DiscoverResult, want)
		}
	}
}

// Past the bounds, the items are counted and not kept.
func TestDecodeResultKeepsTheFirstItems(t *testing.T) {
	in := `{"warnings":[` + strings.Repeat(`{"file":"f"},`, maxWarnings+4) + `{}],"tasks":[` + strings.Repeat(`{"name":"t"},`, DefaultMaxTasks+9) + `{}]}`
	got, err := decodeResult([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Tasks) != DefaultMaxTasks || got.tasks != DefaultMaxTasks+10 || len(got.Warnings) != maxWarnings || got.warnings != maxWarnings+5 {
		t.Errorf("kept %d of %d tasks, %d of %d warnings", len(got.Tasks), got.tasks, len(got.Warnings), got.warnings)
	}
}
