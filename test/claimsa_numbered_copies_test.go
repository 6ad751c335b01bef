package test

import (
	"strings"
	"testing"
)

// Emacs with version-control set keeps numbered backups, and cp and mv
// with --backup=numbered do the same: credentials.json's previous content
// as credentials.json.~1~, then .~2~. Each is a copy of the secret beside
// it and a secret as it is, to every tool; a numbered backup of an
// ordinary file stays readable.
func TestClaimsANumberedBackupsOfSecretsAreSecrets(t *testing.T) {
	copies := map[string]string{
		"credentials.json.~1~":         "{\"token\":\"SECRET-NUMBERED-ONE\"}\n",
		"tls/server.key.~12~":          "SECRET-NUMBERED-KEY\n",
		".netrc.~2~":                   "machine h login u password SECRET-NUMBERED-NETRC\n",
		".aws/credentials.~3~~":        "SECRET-NUMBERED-AWS\n",
		".git-credentials.~1~":         "https://u:SECRET-NUMBERED-GIT@h\n",
		"deploy/cert.pem.~1~.bak":      "SECRET-NUMBERED-PEM\n",
		"..env.kate-swp":               "SECRET-NUMBERED-KATE\n",
		"credentials.json___jb_old___": "SECRET-NUMBERED-JETBRAINS\n",
	}
	files := map[string]string{"main.go.~1~": "package main // VISIBLE-NUMBERED\n"}
	for name, content := range copies {
		files[name] = content
	}
	root := workspace(t, files)
	s := start(t, root)
	for name := range copies {
		s.fail("read_file", map[string]any{"path": name}, "SECRET_DENIED")
		s.fail("file_info", map[string]any{"path": name}, "SECRET_DENIED")
	}
	for _, out := range []string{
		s.ok("list_directory", map[string]any{"path": "."}),
		s.ok("glob_files", map[string]any{"pattern": "**/*", "includeIgnored": true}),
		s.ok("search_code", map[string]any{"pattern": "SECRET-NUMBERED"}),
	} {
		for name, content := range copies {
			if strings.Contains(out, name) || strings.Contains(out, strings.TrimSpace(content)) {
				t.Errorf("%s shown:\n%s", name, out)
			}
		}
	}
	if out := s.ok("read_file", map[string]any{"path": "main.go.~1~"}); !strings.Contains(out, "VISIBLE-NUMBERED") {
		t.Errorf("main.go.~1~: %s", out)
	}
}
