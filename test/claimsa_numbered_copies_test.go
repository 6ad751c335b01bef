package test

import "testing"

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
	copiesAreSecrets(t, copies, "SECRET-NUMBERED", map[string]string{"main.go.~1~": "package main // VISIBLE-NUMBERED\n"})
}
