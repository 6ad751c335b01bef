package test

import (
	"strings"
	"testing"
)

// TestAuditMasksCredentialsInArguments: a credential the AI typed into a
// command line — a bearer token, a password flag, a token in a URL — is
// not in juju audit nor in juju audit --json; the rest of the command
// line is, with a mark where the credential was.
func TestAuditMasksCredentialsInArguments(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "x\n"})
	home := newHome(t)
	s := startHome(t, home, root, "--mode", "trusted", "--sandbox", "off")
	commands := []string{
		`echo curl -H "Authorization: Bearer audit-e2e-1abc" https://api.example.com`,
		`echo mysql --password=audit-e2e-2abc -h db`,
		`echo git clone https://audit-e2e-3abc@github.com/me/repo`,
		`echo deploy --api-key audit-e2e-4abc`,
		`echo ghp_e2e5abcdefghijklmnopqrstuvwxyz0123456`,
	}
	for _, c := range commands {
		s.ok("run_command", map[string]any{"command": c})
	}
	secrets := []string{"audit-e2e-1", "audit-e2e-2", "audit-e2e-3", "audit-e2e-4", "ghp_e2e5"}
	text := juju(t, home, root, "audit")
	var js strings.Builder
	for _, e := range auditJSON(t, home, root) {
		js.WriteString(e.Args + "\n")
	}
	for form, out := range map[string]string{"juju audit": text, "juju audit --json": js.String()} {
		for _, secret := range secrets {
			if strings.Contains(out, secret) {
				t.Errorf("%s shows %q:\n%s", form, secret, out)
			}
		}
		// juju audit cuts a long argument; these all fit.
		for _, kept := range []string{"Authorization: Bearer ⟨secret⟩", "--password=⟨secret⟩ -h db",
			"git clone https://⟨secret⟩@", "--api-key ⟨secret⟩", "echo ⟨secret⟩"} {
			if !strings.Contains(out, kept) {
				t.Errorf("%s lacks %q:\n%s", form, kept, out)
			}
		}
	}
}
