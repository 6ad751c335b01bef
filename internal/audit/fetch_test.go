package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// A fetch's URLs keep no credential the record's arguments would mask: a
// URL's user, a token in the query, a known service's token, in the URL
// asked for and in the final one alike; a ⟨ the URL held cannot pass for
// a mask; a URL without credentials is kept as it is.
func TestFetchURLsMasked(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@h.example/x", "https://⟨secret⟩@h.example/x"},
		{"https://alice:xxxxx@h.example/", "https://alice:⟨secret⟩@h.example/"},
		{"https://h.example/api?access_token=s3cr3t-value&page=2", "https://h.example/api?access_token=⟨secret⟩&page=2"},
		{"https://h.example/ghp_abcdefghijklmnopqrstuvwxyz0123456789/x?password=hunter2;data=exfil", "https://h.example/⟨secret⟩/x?password=⟨secret⟩;data=exfil"},
		{"https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX", "https://hooks.slack.com⟨secret⟩"},
		{"https://h.example/q?key=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "https://h.example/q?key=⟨secret⟩"},
		{"https://h.example/docs/page?q=release+notes#top", "https://h.example/docs/page?q=release+notes#top"},
		{"https://h.example/?q=⟨secret⟩", "https://h.example/?q=%E2%9F%A8secret⟩"},
	} {
		f := NewFetch(c.url, c.url, 200, OutcomeOK, 8<<10)
		if f.URL != c.want || f.FinalURL != c.want {
			t.Errorf("%s recorded as %q, final %q; want %q", c.url, f.URL, f.FinalURL, c.want)
		}
	}
	// A URL kept cut is described as recorded: masked, then measured.
	long := "https://h.example/?password=hunter2&pad=" + strings.Repeat("a", 9000)
	f := NewFetch(long, "", 0, "INVALID_ARGUMENT", 8<<10)
	masked := MaskURL(long)
	sum := sha256.Sum256([]byte(masked))
	if strings.Contains(f.URL, "hunter2") || f.URLWhole == nil || f.URLWhole.Bytes != len(masked) || f.URLWhole.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("a long URL with a password recorded as %.80q, %+v", f.URL, f.URLWhole)
	}
}

// A string that is no URL is judged in pieces too.
func TestMaskURLWithoutScheme(t *testing.T) {
	for in, want := range map[string]string{
		"ghp_abcdefghijklmnopqrstuvwxyz0123456789":  "⟨secret⟩",
		"data:text/plain,hi?token=abcdef123456&x=1": "data:text/plain,hi?token=⟨secret⟩&x=1",
		"":  "",
		"/": "/",
	} {
		if got := MaskURL(in); got != want {
			t.Errorf("MaskURL(%q) = %q, want %q", in, got, want)
		}
	}
}
