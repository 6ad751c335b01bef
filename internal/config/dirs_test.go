package config

import (
	"path/filepath"
	"testing"
)

func TestDirsFor(t *testing.T) {
	home := filepath.FromSlash("/home/ada")
	j := func(parts ...string) string { return filepath.Join(append([]string{home}, parts...)...) }
	tests := []struct {
		name string
		goos string
		env  map[string]string
		home string
		want Dirs
	}{
		{
			name: "linux defaults",
			goos: "linux", home: home,
			want: Dirs{
				Config: j(".config", "juju"),
				State:  j(".local", "state", "juju"),
				Cache:  j(".cache", "juju"),
				Data:   j(".local", "share", "juju"),
			},
		},
		{
			name: "linux XDG variables",
			goos: "linux", home: home,
			env: map[string]string{
				"XDG_CONFIG_HOME": "/x/config", "XDG_STATE_HOME": "/x/state",
				"XDG_CACHE_HOME": "/x/cache", "XDG_DATA_HOME": "/x/data",
			},
			want: Dirs{
				Config: filepath.FromSlash("/x/config/juju"),
				State:  filepath.FromSlash("/x/state/juju"),
				Cache:  filepath.FromSlash("/x/cache/juju"),
				Data:   filepath.FromSlash("/x/data/juju"),
			},
		},
		{
			name: "relative XDG values are ignored",
			goos: "freebsd", home: home,
			env: map[string]string{"XDG_CONFIG_HOME": "rel/config"},
			want: Dirs{
				Config: j(".config", "juju"),
				State:  j(".local", "state", "juju"),
				Cache:  j(".cache", "juju"),
				Data:   j(".local", "share", "juju"),
			},
		},
		{
			name: "macOS",
			goos: "darwin", home: home,
			env: map[string]string{"XDG_CONFIG_HOME": "/x/config"}, // not used on macOS
			want: Dirs{
				Config: j("Library", "Application Support", "juju"),
				State:  j("Library", "Application Support", "juju", "state"),
				Cache:  j("Library", "Caches", "juju"),
				Data:   j("Library", "Application Support", "juju"),
			},
		},
		{
			name: "JUJU_HOME wins everywhere",
			goos: "darwin", home: "",
			env: map[string]string{HomeEnv: "/tmp/jh", "XDG_CONFIG_HOME": "/x/config"},
			want: Dirs{
				Config: filepath.FromSlash("/tmp/jh/config"),
				State:  filepath.FromSlash("/tmp/jh/state"),
				Cache:  filepath.FromSlash("/tmp/jh/cache"),
				Data:   filepath.FromSlash("/tmp/jh/data"),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := dirsFor(tt.goos, func(k string) string { return tt.env[k] }, tt.home)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestDirsForNoHome(t *testing.T) {
	for _, goos := range []string{"linux", "darwin"} {
		if _, err := dirsFor(goos, func(string) string { return "" }, ""); err == nil {
			t.Errorf("%s: no home and no JUJU_HOME: want an error", goos)
		}
	}
}

func TestDefaultDirsJujuHome(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(HomeEnv, dir)
	d, err := DefaultDirs()
	if err != nil {
		t.Fatal(err)
	}
	if d.Config != filepath.Join(dir, "config") || d.Data != filepath.Join(dir, "data") {
		t.Errorf("DefaultDirs() = %+v, want them under %s", d, dir)
	}
	if d.ConfigFile() != filepath.Join(dir, "config", FileName) {
		t.Errorf("ConfigFile() = %s", d.ConfigFile())
	}
}
