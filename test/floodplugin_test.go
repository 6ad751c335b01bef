package test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// A hostile plugin's result, answered through juju, stays within what a
// client takes, and what it leaves pending in its channel within what the
// host holds for it: images past the budget are left out with a note, and
// of 120 MiB written to stdout without a host call at most 80 MiB go
// through, the call answering all the same.
func TestFloodPluginIsBounded(t *testing.T) {
	home := t.TempDir()
	installForTest(t, home, "plugins/testplugins/flood", nil)
	root := workspace(t, map[string]string{"a.txt": "still here\n"})
	s := startHome(t, home, root)

	res := s.call("test_flood", map[string]any{"op": "images", "mib": 8, "count": 2, "mimeType": "image/png"})
	answer, _ := json.Marshal(res)
	if res.IsError || len(answer) > 100_000 || !strings.Contains(text(res), "juju left out 2 image(s)") {
		t.Fatalf("two images of 8 MiB: an answer of %d bytes: %.300s", len(answer), answer)
	}
	res = s.call("test_flood", map[string]any{"op": "images", "mib": 0, "count": 5_000, "mimeType": "text/html"})
	if answer, _ = json.Marshal(res); len(answer) > 10_000 || !strings.Contains(text(res), "not an image type") {
		t.Fatalf("5,000 image items: an answer of %d bytes: %.300s", len(answer), answer)
	}
	got := s.ok("test_flood", map[string]any{"op": "write", "mib": 120})
	if n, err := strconv.Atoi(got); err != nil || n > 80 {
		t.Fatalf("%s MiB pending went through", got)
	}
	if got := s.ok("read_file", map[string]any{"path": "a.txt"}); !strings.Contains(got, "still here") {
		t.Fatalf("read_file after the flood: %q", got)
	}
}
