package token

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestLoadOrCreateMakesOnePrivateToken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cfg", FileName)
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tok, err := LoadOrCreate(path)
			if err != nil {
				t.Error(err)
			}
			got[i] = tok
		}()
	}
	wg.Wait()
	for _, tok := range got[1:] {
		if tok != got[0] {
			t.Fatalf("racing creators saw different tokens: %q and %q", got[0], tok)
		}
	}
	if !strings.HasPrefix(got[0], prefix) || len(got[0]) != len(prefix)+43 {
		t.Fatalf("token %q: want %s and 43 base64url characters", got[0], prefix)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode: %v %v", st.Mode(), err)
	}
	dir, _ := os.Stat(filepath.Dir(path))
	if dir.Mode().Perm() != 0o700 {
		t.Fatalf("token folder mode %v", dir.Mode())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
	again, err := LoadOrCreate(path)
	if err != nil || again != got[0] {
		t.Fatalf("second load: %q %v", again, err)
	}
}

func TestLoadRefuses(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		content string
		mode    fs.FileMode
		want    error
	}{
		{"readable by others", New(), 0o644, ErrExposed},
		{"writable by the group", New(), 0o620, ErrExposed},
		{"too short", "short-token", 0o600, ErrMalformed},
		{"spaces inside", strings.Repeat("a", 20) + " " + strings.Repeat("b", 20), 0o600, ErrMalformed},
		{"empty", "", 0o600, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-"))
			if err := os.WriteFile(p, []byte(tt.content), tt.mode); err != nil {
				t.Fatal(err)
			}
			os.Chmod(p, tt.mode)
			if _, err := Load(p); !errors.Is(err, tt.want) {
				t.Fatalf("Load: %v, want %v", err, tt.want)
			}
			if _, err := LoadOrCreate(p); !errors.Is(err, tt.want) {
				t.Fatalf("LoadOrCreate replaced a bad file instead of refusing it: %v", err)
			}
		})
	}
	if _, err := Load(dir); !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrExposed) {
		t.Fatalf("a folder as token file: %v", err)
	}
}

func TestLoadAcceptsOwnersToken(t *testing.T) {
	p := filepath.Join(t.TempDir(), "mine")
	own := strings.Repeat("x", MinLen)
	os.WriteFile(p, []byte("  "+own+"\n\n"), 0o600)
	if tok, err := Load(p); err != nil || tok != own {
		t.Fatalf("Load = %q, %v", tok, err)
	}
}
