package test

import "testing"

// The files where common tools keep a login are secrets as .netrc and
// .npmrc are: the GitHub CLI's token, git's XDG credential store, cargo's
// and gem's registry tokens, PuTTY's and age's private keys, Windows'
// _netrc, Vault's token, MySQL's client password, Terraform Cloud's,
// gcloud's, Azure's, s3cmd's, boto's and Databricks' credentials, GnuPG's
// keys, bundler's gem server logins and an htpasswd file. read_file
// served each to a root holding the home folder or a project.
func TestCredentialFilesOfToolsAreSecrets(t *testing.T) {
	copiesAreSecrets(t, map[string]string{
		".config/gh/hosts.yml":               "github.com:\n    oauth_token: SECRET-GH\n",
		".config/git/credentials":            "https://me:SECRET-GITXDG@github.com\n",
		".cargo/credentials.toml":            "[registry]\ntoken = \"SECRET-CARGO\"\n",
		".cargo/credentials":                 "[registry]\ntoken = \"SECRET-CARGOOLD\"\n",
		".gem/credentials":                   ":rubygems_api_key: SECRET-GEM\n",
		"deploy.ppk":                         "PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\nSECRET-PPK\n",
		"_netrc":                             "machine h login me password SECRET-WINNETRC\n",
		".vault-token":                       "hvs.SECRET-VAULT\n",
		".my.cnf":                            "[client]\npassword=SECRET-MYCNF\n",
		".terraform.d/credentials.tfrc.json": "{\"credentials\":{\"app.terraform.io\":{\"token\":\"SECRET-TFC\"}}}\n",
		".config/gcloud/application_default_credentials.json": "{\"refresh_token\":\"SECRET-GCLOUD\"}\n",
		".config/gcloud/credentials.db":                       "SECRET-GCLOUDDB\n",
		".azure/msal_token_cache.json":                        "{\"AccessToken\":\"SECRET-AZURE\"}\n",
		".s3cfg":                                              "[default]\nsecret_key = SECRET-S3CFG\n",
		".boto":                                               "[Credentials]\naws_secret_access_key = SECRET-BOTO\n",
		".databrickscfg":                                      "[DEFAULT]\ntoken = SECRET-DATABRICKS\n",
		".gnupg/private-keys-v1.d/ABCD.key":                   "SECRET-GPG\n",
		".gnupg/secring.gpg":                                  "SECRET-GPGRING\n",
		".config/sops/age/keys.txt":                           "AGE-SECRET-KEY-1SECRETAGE\n",
		".bundle/config":                                      "BUNDLE_GEMS__CONTRIBSYS__COM: \"me:SECRET-BUNDLE\"\n",
		".htpasswd":                                           "me:SECRET-HTPASSWD\n",
	}, "SECRET", map[string]string{
		".config/app/settings.yml": "theme: dark\n", "keys.txt": "plain keys\n", "bundle/config": "plain\n",
		"gh/hosts.yml": "plain hosts\n",
	})
}
