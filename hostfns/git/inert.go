package git

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/proc"
)

// What makes git inert. A repository's configuration and files are
// attacker input (SPEC §4: anything under the workspace is), and git
// runs programs that configuration names: filters, diff drivers, text
// conversions, the fsmonitor, hooks, pagers, editors, ssh, credential
// helpers, gpg. Every such setting is overridden in git's command-line scope
// (GIT_CONFIG_COUNT), where the last value wins over every configuration file; the drivers
// that a repository's own configuration defines (its own config file,
// config.worktree, and whatever those include) are found with `git config
// --list --includes` and emptied one by one. Settings from the owner's
// system and global files are the owner's own programs and stay (git-lfs).

// baseEnv is the environment every git run gets, after the scrubbed
// environment with every GIT_* variable removed (an inherited GIT_DIR,
// GIT_CONFIG_PARAMETERS or GIT_EXTERNAL_DIFF is not juju's to honour).
var baseEnv = []string{
	"GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "PAGER=cat", "GIT_EDITOR=:", "GIT_SEQUENCE_EDITOR=:",
	"GIT_SSH_COMMAND=false", "GIT_SSH=false", "GIT_ASKPASS=false", "SSH_ASKPASS=false",
	"GIT_NO_REPLACE_OBJECTS=1", "GIT_PROTOCOL_FROM_USER=0", "GIT_ALLOW_PROTOCOL=",
}

// readEnv is added for the reading subcommands: no optional locks, so a
// status never writes the index; and where git parses options with
// parse-options, an abbreviated long option is refused instead of taken
// for the whole one, a second guard behind checkOption's. (Not for add and
// commit, whose hooks run git as on the owner's terminal.)
var readEnv = []string{"GIT_OPTIONAL_LOCKS=0", "GIT_TEST_DISALLOW_ABBREVIATED_OPTIONS=true"}

// always are the overrides of every run, commit included.
var always = []string{
	"core.fsmonitor=false",
	"core.pager=cat",
	"core.editor=:",
	"sequence.editor=:",
	"core.sshCommand=false",
	"core.askPass=false",
	"credential.helper=",
	"core.alternateRefsCommand=",
	"protocol.allow=never",
	"safe.bareRepository=explicit",
	"submodule.recurse=false",
	"diff.ignoreSubmodules=all",
	"status.submoduleSummary=false",
	"diff.external=",
	"color.ui=false",
	"core.quotePath=false",
	// juju reads git's text as UTF-8: a repository's
	// i18n.logOutputEncoding = UTF-16LE made every commit's fields
	// unreadable, and git_log said the commits touched only withheld
	// paths.
	"i18n.logOutputEncoding=UTF-8",
	// A diff's names read a/… and b/…, as apply_patch and the model
	// expect: a repository's diff.noprefix or diff.mnemonicPrefix (i/…,
	// w/…) changed them.
	"diff.noprefix=false",
	"diff.mnemonicPrefix=false",
	"diff.srcPrefix=a/",
	"diff.dstPrefix=b/",
}

// readOnly are the overrides of the reading subcommands, which run no
// hooks, sign nothing and need no maintenance.
var readOnly = []string{
	"core.hooksPath=/dev/null",
	"log.showSignature=false",
	"gpg.program=false",
	"gpg.openpgp.program=false",
	"gpg.x509.program=false",
	"gpg.ssh.program=false",
	"gpg.ssh.defaultKeyCommand=false",
	"gc.auto=0",
	"maintenance.auto=false",
	"core.untrackedCache=false",
}

// programKey matches the per-driver settings that name a program. It and
// the other patterns of the host functions are compiled when first used,
// not in the package inits every start runs (RATIONALE).
var programKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(filter|diff|merge)\.(.+)\.(clean|smudge|process|command|textconv|driver)$`)
})

// owner's scopes: configuration files outside the repository.
var ownerScopes = map[string]bool{"system": true, "global": true}

// outsideRoots returns ownerFile for repoDrivers: an origin is the owner's
// when it is a file (file:PATH, PATH absolute) that lies outside every root
// (real paths) by its path and by where it leads.
func outsideRoots(roots []string) func(origin string) bool {
	return func(origin string) bool {
		p, ok := strings.CutPrefix(origin, "file:")
		if !ok || !filepath.IsAbs(p) {
			return false
		}
		paths := []string{filepath.Clean(p)}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			paths = append(paths, real)
		}
		for _, p := range paths {
			for _, r := range roots {
				if policy.Within(p, r) {
					return false
				}
			}
		}
		return true
	}
}

// cleanEnv returns env with every GIT_* variable removed.
func cleanEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(strings.ToUpper(kv), "GIT_") {
			out = append(out, kv)
		}
	}
	return out
}

// repoEnv names the repository to git explicitly.
func (r *repo) env() []string {
	return []string{"GIT_DIR=" + r.gitDir, "GIT_COMMON_DIR=" + r.common, "GIT_WORK_TREE=" + r.top}
}

// configEnv returns the overrides of one run as GIT_CONFIG_COUNT,
// GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n (git's command-line scope, which
// wins over every file; keys and values travel apart, so a driver name
// holding "=" is overridden too): the fixed ones, then, for the reading
// subcommands, an empty value for every driver program a repository-level
// configuration file names.
func configEnv(mutates bool, repoDefined []string) []string {
	var kvs [][2]string
	add := func(kv string) {
		k, v, _ := strings.Cut(kv, "=")
		kvs = append(kvs, [2]string{k, v})
	}
	for _, kv := range always {
		add(kv)
	}
	if !mutates {
		for _, kv := range readOnly {
			add(kv)
		}
		for _, k := range repoDefined {
			kvs = append(kvs, [2]string{k, ""})
		}
	}
	env := []string{fmt.Sprintf("GIT_CONFIG_COUNT=%d", len(kvs))}
	for i, kv := range kvs {
		env = append(env, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", i, kv[0]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", i, kv[1]))
	}
	return env
}

// repoDrivers lists the driver program keys that configuration other than
// the owner's system and global files sets, read with `git config --list
// --show-scope --show-origin --includes -z` (output: scope NUL origin NUL
// key LF value NUL …). A system or global setting counts as the owner's
// only when ownerFile says its file is (outside the workspace roots: with
// the home folder inside a root, ~/.gitconfig is a file the write tools
// and commands can change). Section and variable come lower-cased; the
// driver's name keeps its case, as git matches it.
func repoDrivers(out []byte, ownerFile func(origin string) bool) []string {
	var keys []string
	seen := map[string]bool{}
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+2 < len(fields); i += 3 {
		scope, origin := string(fields[i]), string(fields[i+1])
		key, _, _ := strings.Cut(string(fields[i+2]), "\n")
		if seen[key] || !programKey().MatchString(key) || ownerScopes[scope] && ownerFile(origin) {
			continue
		}
		seen[key] = true
		keys = append(keys, key)
	}
	return keys
}

// listConfig runs `git config --list` in the repository with env.
func (s *server) listConfig(ctx context.Context, dir string, env []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return s.output(proc.Command(ctx, dir, env, "git", "config", "--list", "--show-scope", "--show-origin", "--includes", "-z"))
}
