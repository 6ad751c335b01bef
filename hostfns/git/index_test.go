package git

import "testing"

// badIndexName takes a name as git's verify_path would: a name that
// leads out of the work tree or into the repository folder is bad, any
// ordinary one (dots inside names, ".gitignore", ".github") is not.
func TestBadIndexName(t *testing.T) {
	for name, want := range map[string]bool{
		"a.txt": false, "sub/b.txt": false, ".gitignore": false, ".github/ci.yml": false,
		"a..b": false, "..a": false, "x/.git.d/y": false, "...": false,
		"": true, "/etc/passwd": true, "../x": true, "a/../../x": true, "a/..": true,
		"./a": true, "a//b": true, "a/": true, ".git/config": true, "sub/.GIT/hooks/x": true, ".Git": true,
	} {
		if got := badIndexName(name); got != want {
			t.Errorf("badIndexName(%q) = %v, want %v", name, got, want)
		}
	}
}
