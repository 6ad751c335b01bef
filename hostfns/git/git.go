// Package git provides juju's git host function, FnGit (capability git):
// the real git CLI on the workspace, with an argument list the host checks
// first, made inert against what the repository's content names.
//
// What it enforces:
//
//   - git runs only on the root's own repository, found at start (the
//     nearest .git at or above the root) and named to git explicitly
//     (GIT_DIR, GIT_COMMON_DIR, GIT_WORK_TREE): never a repository
//     discovered in a subfolder (an embedded bare repository, a git init by
//     a command), never a commondir or .git file written after start, and
//     never one whose .git leads outside the roots: a commondir there, a
//     link (a ref, objects, the index) or an alternates line (store.go) is
//     refused.
//   - Every setting that names a program is overridden in git's
//     command-line scope (inert.go): fsmonitor, hooks path, pagers, editors,
//     ssh, credential helpers, gpg, external diff; the --no-ext-diff,
//     --no-textconv and --ignore-submodules options; and the filter, diff and
//     merge driver programs that the repository's own configuration (and
//     anything it includes) defines are emptied for the reading
//     subcommands. The owner's system and global settings stay.
//   - The reading subcommands run confined, where the owner's sandbox
//     setting allows it and a sandbox works: no writable path, no network.
//     add and commit, which run the repository's hooks and filters, run
//     confined like a command (sandbox = require refuses them without a
//     sandbox).
//   - The first argument is a subcommand from an allow-list (status, diff,
//     log, show, rev-parse, ls-files, branch --show-current, add, commit);
//     no global option can be given.
//   - No option that runs programs, redirects git or reads files named by
//     the caller: -c, --exec-path, --git-dir, --work-tree, --upload-pack,
//     --receive-pack, --exec, --output, --ext-diff, --textconv, --no-index,
//     --file, --pathspec-from-file, --template, submodule recursion,
//     interactive and editor options, and no argument mentioning ext:: URLs
//     (a commit's message may).
//     Revisions cannot name a blob by path (HEAD:.env): an argument with a
//     colon is refused. The revisions of show, log and diff must name
//     commits (revisions.go), and nothing may lift the exclusions below:
//     --full-diff, --pickaxe-all, and for show and diff the options that
//     add what refs or the index name (--tags, --all, --indexed-objects …)
//     are refused; status and ls-files take paths only after "--".
//   - The work tree git reads is the root's: status, diff and ls-files
//     are refused while the index names a file outside the work tree or
//     in .git (index.go), which git reads there unchecked.
//   - Everything after "--" is a path, resolved against the path policy,
//     and handed to git as a literal pathspec (never a wildcard, and a
//     name starting with ':' is that file's):
//     outside the roots is PATH_DENIED; a secret or denied path is
//     SECRET_DENIED or PATH_DENIED for the reading subcommands and is
//     left out, and reported in Skipped, for add. add takes files only, and
//     never -A, -u or a folder, so nothing is staged by a sweep.
//   - The reading subcommands get exclusion pathspecs for every secret and
//     deny glob and for juju's own folders inside the roots, and stay inside the roots, so status, diff, log -p and
//     ls-files never show a secret's name or content. A diff against the
//     work tree also excludes the index's files whose work tree file is a
//     hard link to a private key (linked.go), which add and commit leave
//     out as withheld.
//   - add and commit change the repository and are served only to
//     exec-tier tools (hostfns.Caller.Tier).
//   - The child's environment is scrubbed as for commands (package
//     hostfns/exec) and every inherited GIT_* variable dropped, its stdin is
//     empty (but for commit's paths when they are too many for its
//     arguments: the host's own --pathspec-from-file=-), and it is killed
//     with its process group when the call's time runs out.
package git

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	osexec "os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/proc"
	"github.com/jujutools/juju/sandbox"
	"github.com/jujutools/juju/sdk/abi"
)

// Defaults of Options.
const (
	DefaultTimeout   = 2 * time.Minute
	DefaultMaxOutput = 8 << 20
	// DefaultMaxData caps the data memory of every git juju starts but
	// add and commit (proc.LimitData): git status over an index of a
	// million files took 0.6 GB, and a repository's own settings make git
	// read a file whole into memory (diff.orderFile, core.attributesFile),
	// /dev/zero among them, or inflate an object of any size
	// (core.bigFileThreshold), so a read grew until the machine ran out
	// of memory.
	DefaultMaxData = 2 << 30
	// deadlineMargin is left between git's end and the plugin call's
	// deadline.
	deadlineMargin = time.Second
)

// Options configure the git host function.
type Options struct {
	// Env is the environment git starts from, before scrubbing
	// (os.Environ() when nil).
	Env []string
	// EnvScrubbed says Env is sandbox.Scrub's already (the host scrubs
	// its environment once for git and the language servers).
	EnvScrubbed bool
	// Timeout bounds one git run (DefaultTimeout when 0).
	Timeout time.Duration
	// MaxOutput caps the stdout returned (DefaultMaxOutput when 0).
	MaxOutput int
	// MaxData caps the data memory of each git run but add and commit,
	// whose hooks run as commands do (DefaultMaxData when 0).
	MaxData uint64
	// ConfineRead wraps the argv of a reading git run (status, diff, log,
	// show, ls-files, rev-parse, branch) so that it runs with no writable
	// path and no network: nil, or an error, runs it unconfined, its
	// program-naming settings neutralised all the same.
	// visible are the folders the run must see (the repository's).
	ConfineRead func(cwd string, visible, argv []string) ([]string, error)
	// ConfineWrite wraps the argv of add and commit, whose hooks and
	// filters run, as a command is confined (package sandbox): nil runs
	// them unconfined; an error refuses them (sandbox = require and no
	// sandbox here).
	ConfineWrite func(cwd string, argv []string) ([]string, *abi.Error)
	Logger       *slog.Logger
}

type server struct {
	pol   *policy.Policy
	opts  Options
	env   []string
	globs []string // the secret and deny globs (Excludes)
	// ownerFile tells a configuration file of the owner's from one inside
	// the roots (outsideRoots).
	ownerFile func(origin string) bool
	repos     map[string]*repo // by root (real path): the repository pinned at start
	// indexClean remembers, by index file, the SHA-256 of the version
	// checkIndex last found clean.
	indexMu    sync.Mutex
	indexClean map[string]string
	foreign    map[string]bool // roots whose .git names a repository juju refused at start
	log        *slog.Logger
	// nonce and runs make each add's and commit's hookVar value, which
	// tells the orphans its hooks leave from another's.
	nonce string
	runs  atomic.Uint64
	// version is what checkGit found of the git on the PATH.
	versionMu sync.Mutex
	version   struct {
		found found
		err   *abi.Error
	}
}

// hookVar marks the processes of a git add or commit (its hooks' too),
// so that an orphan juju was handed (proc.Subreap) ends with its git
// (proc.Adopted), as exec's JUJU_JOB marks a job's.
const hookVar = "JUJU_GIT"

// New returns the git host function over the policy p.
func New(p *policy.Policy, opts Options) []hostfns.Func {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = DefaultMaxOutput
	}
	if opts.MaxData == 0 {
		opts.MaxData = DefaultMaxData
	}
	if opts.Env == nil {
		opts.Env = os.Environ()
	}
	s := &server{pol: p, opts: opts, log: opts.Logger}
	var nonce [8]byte
	rand.Read(nonce[:])
	s.nonce = hex.EncodeToString(nonce[:])
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	env := opts.Env
	if !opts.EnvScrubbed {
		env = sandbox.Scrub(env)
	}
	s.env = append(cleanEnv(env), baseEnv...)
	s.repos, s.foreign = map[string]*repo{}, map[string]bool{}
	s.indexClean = map[string]string{}
	var roots []string
	for _, r := range p.Roots() {
		roots = append(roots, r.Real)
	}
	s.ownerFile = outsideRoots(roots)
	for _, r := range p.Roots() {
		if rp, err := pinRepo(r.Real, roots); err == nil {
			s.repos[r.Real] = rp
		} else if !errors.Is(err, errNoRepo) {
			s.foreign[r.Real] = errors.Is(err, errForeign)
			s.log.Warn("git: the root's repository is not used", "root", r.Real, "err", err)
		}
	}
	s.globs = append(p.Secrets(), p.Deny()...)
	return []hostfns.Func{{Name: abi.FnGit, Capability: abi.CapGit, Handle: hostfns.Typed(s.git)}}
}

// Excludes turns secret and deny globs (matched like the path policy
// matches them: a glob without a slash names a file or folder at any
// depth, a glob with one is a path from a root) into git exclusion
// pathspecs, from the repository's top. roots are the paths of the roots
// inside the repository, from its top ("" for the top itself): a glob with
// a slash is excluded under each. Braces, which the policy's globs expand
// and git's do not, are expanded first.
func Excludes(globs, roots []string) []string {
	if len(roots) == 0 {
		roots = []string{""}
	}
	var out []string
	add := func(g string) {
		out = append(out, ":(top,exclude,glob,icase)"+g, ":(top,exclude,glob,icase)"+g+"/**")
	}
	for _, glob := range globs {
		for _, g := range expandBraces(glob) {
			g = strings.TrimSuffix(strings.TrimPrefix(g, "/"), "/")
			switch {
			case g == "":
			case !strings.Contains(g, "/"):
				add("**/" + g)
			case strings.HasPrefix(g, "**/"):
				add(g) // at any depth from the top: every root's too
			default:
				for _, r := range roots {
					if r == "" || r == "." {
						add(g)
					} else {
						add(r + "/" + g)
					}
				}
			}
		}
	}
	return out
}

// maxBraceGlobs bounds what one glob's braces expand to; past it each
// brace group is a wildcard instead, which excludes more, never less.
const maxBraceGlobs = 256

// expandBraces expands the brace groups of a doublestar glob ("*.{pem,key}"
// → "*.pem", "*.key"), nested ones too; a backslash escapes a brace or a
// comma.
func expandBraces(g string) []string {
	out := []string{g}
	for {
		var next []string
		grew := false
		for _, p := range out {
			alts, ok := firstGroup(p)
			if !ok {
				next = append(next, p)
				continue
			}
			grew = true
			next = append(next, alts...)
		}
		out = next
		if !grew {
			return out
		}
		if len(out) > maxBraceGlobs {
			return []string{wildBraces(g)}
		}
	}
}

// firstGroup expands the first outermost brace group of p into one
// pattern per alternative; ok is false when p has none.
func firstGroup(p string) (alts []string, ok bool) {
	open, depth := -1, 0
	var commas []int
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open, commas = i, nil
			}
			depth++
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth == 0 {
				prefix, suffix := p[:open], p[i+1:]
				start := open + 1
				for _, c := range append(commas, i) {
					alts = append(alts, prefix+p[start:c]+suffix)
					start = c + 1
				}
				return alts, true
			}
		}
	}
	return nil, false
}

// wildBraces replaces every outermost brace group of g by a wildcard: "*",
// or "**" where an alternative holds a slash.
func wildBraces(g string) string {
	var b strings.Builder
	depth, slash, start := 0, false, 0
	for i := 0; i < len(g); i++ {
		switch g[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				b.WriteString(g[start:i])
				slash = false
			}
			depth++
		case '/':
			if depth > 0 {
				slash = true
			}
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth == 0 {
				if slash {
					b.WriteString("**")
				} else {
					b.WriteString("*")
				}
				start = i + 1
			}
		}
	}
	if depth > 0 { // an unclosed brace: the rest as it is
		return g
	}
	b.WriteString(g[start:])
	return b.String()
}

// subcommand says how one allowed subcommand is served.
type subcommand struct {
	mutates bool // add, commit: exec tier only
	reads   bool // gets the exclusion pathspecs and stays inside the roots
	extDiff bool // gets --no-ext-diff
	// revisions: its arguments before "--" are revisions, each of which
	// must name commits (checkRevisions); pathsAfter: it takes no
	// argument before "--" but options.
	revisions, pathsAfter bool
	only                  []string
}

var subcommands = map[string]subcommand{
	"status":    {reads: true, pathsAfter: true},
	"diff":      {reads: true, extDiff: true, revisions: true},
	"log":       {reads: true, extDiff: true, revisions: true},
	"show":      {reads: true, extDiff: true, revisions: true},
	"ls-files":  {reads: true, pathsAfter: true},
	"rev-parse": {},
	"branch":    {only: []string{"--show-current"}},
	"add":       {mutates: true},
	"commit":    {mutates: true},
}

// forbidden are option names refused before "--" (also as --name=value).
// Besides those that run programs, point git elsewhere, read files or
// stage by sweep: those that show what the exclusion pathspecs leave out
// (--full-diff shows every file of a commit that touched a visible one,
// --pickaxe-all every file of a change -S matched), and commit --include, which
// commits the whole index with the paths given.
var forbidden = []string{
	"-c", "-C", "--config-env", "--exec-path", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
	"--upload-pack", "--receive-pack", "--exec", "-x", "--output", "--output-directory", "-o",
	"--ext-diff", "--no-index", "--open-files-in-pager", "-O", "--orderfile", "-X", "--exclude-from",
	"-F", "--file", "--pathspec-from-file", "--pathspec-file-nul", "--template", "-t",
	"-i", "--interactive", "-p", "--patch", "-e", "--edit", "--reuse-message", "--reedit-message",
	"-a", "-A", "--all", "-u", "--update", "--no-ignore-removal", "-f", "--force", "--chmod", "--sparse",
	"--no-verify", "-n", "--dry-run", "--amend", "--fixup", "--squash", "--allow-empty", "--include",
	"--textconv", "--ignore-submodules", "--submodule", "--recurse-submodules",
	"--full-diff", "--pickaxe-all",
}

// exactLong are long options that are whole names of their own and also
// the start of a forbidden one (--text of --textconv, --all of
// --allow-empty, --exclude of --exclude-from): written whole they are not
// taken for an abbreviation.
var exactLong = []string{"--text", "--all", "--exclude"}

// allowedPerSub lifts a forbidden name for one subcommand where it is a
// harmless read option.
var allowedPerSub = map[string][]string{
	"log":  {"-p", "--patch", "-n", "--all", "-i", "-u", "-c", "-t", "-a", "-C"},
	"show": {"-p", "--patch", "-c", "-t", "-a", "-C"},
	"diff": {"-p", "--patch", "-u", "-c", "-t", "-a", "-C"},
}

// pseudoRefs are the options that add the objects every ref, a reflog or
// the index names. log shows only the commits among them; show prints
// whatever it is given, a blob or a tree a tag names too, whatever the
// pathspecs (git show --tags), so show and diff take revisions only as
// arguments, which checkRevisions checks.
var pseudoRefs = []string{"--all", "--branches", "--tags", "--remotes", "--glob", "--exclude", "--exclude-hidden",
	"--reflog", "--alternate-refs", "--indexed-objects", "--stdin", "--bisect"}

// forbiddenPerSub adds forbidden names for one subcommand.
var forbiddenPerSub = map[string][]string{"show": pseudoRefs, "diff": pseudoRefs}

func (s *server) git(ctx context.Context, req *abi.GitRequest, _ []byte) (*abi.GitResult, []byte, *abi.Error) {
	if len(req.Args) == 0 {
		return nil, nil, abi.Errorf(abi.InvalidArgument, "give a git subcommand and its arguments")
	}
	if aerr := argsError(req.Args); aerr != nil {
		return nil, nil, aerr
	}
	name := req.Args[0]
	sub, ok := subcommands[name]
	if !ok {
		return nil, nil, abi.Errorf(abi.InvalidArgument, "git %s is not served; the subcommands are status, diff, log, show, ls-files, rev-parse, branch --show-current, add and commit", abi.Quote(name))
	}
	if sub.mutates {
		if c, _ := hostfns.CallerFrom(ctx); c.Tier != abi.TierExec {
			return nil, nil, abi.Errorf(abi.CapabilityDenied, "git %s changes the repository and is served only to exec-tier tools (git_commit)", name)
		}
	}
	cwd, root, aerr := s.cwd(req.Cwd)
	if aerr != nil {
		return nil, nil, aerr
	}
	opts, paths, dashdash := split(req.Args[1:])
	for _, a := range opts {
		if err := s.checkOption(name, sub, a); err != nil {
			return nil, nil, err
		}
	}
	for i, a := range append(append([]string(nil), opts...), paths...) {
		if strings.Contains(strings.ToLower(a), "ext::") && !isMessage(name, opts, i) {
			return nil, nil, abi.Errorf(abi.InvalidArgument, "git arguments cannot mention ext:: transports")
		}
	}
	var skipped []string
	if len(paths) > 0 || dashdash {
		var err *abi.Error
		paths, skipped, err = s.checkPaths(name, cwd, root, paths)
		if err != nil {
			return nil, nil, err
		}
		if name == "add" && len(paths) == 0 {
			return &abi.GitResult{Skipped: skipped}, nil, nil
		}
		if literalPaths(name) {
			paths = literal(paths)
		}
	} else if name == "add" {
		return nil, nil, abi.Errorf(abi.InvalidArgument, "git add needs the files to stage, after \"--\"")
	}

	// Before any git run: without git, juju's own look-ups (the
	// configuration, the revisions, the staged names) would each fail,
	// and git_log said the repository's configuration was unreadable, a
	// revision unknown or the staged names unlisted; an old git would
	// ignore every override of inert.go.
	if aerr := s.checkGit(ctx); aerr != nil {
		return nil, nil, aerr
	}
	rp, err := s.rootRepo(root.Real)
	if err != nil && s.foreign[root.Real] {
		return nil, nil, abi.Errorf(abi.PathDenied, "the .git at or above this root names a repository outside the workspace roots (through its gitdir or commondir) that does not name this work tree back; juju's git tools do not read it: ask the owner to check the root's .git")
	}
	if err != nil && isBare(root.Real) {
		return nil, nil, abi.Errorf(abi.NotFound, "this root is a bare repository (a repository with no work tree), which juju's git tools do not work in; clone it (git clone %s <folder>) and serve the clone as the workspace root", abi.Quote(root.Real))
	}
	if err != nil {
		// As git would say it, so callers that test for it still do.
		return &abi.GitResult{ExitCode: 128, Stderr: "fatal: not a git repository: juju's git tools use the repository of the workspace root, and this root has none"}, nil, nil
	}
	if aerr := checkStore(s.pol, rp); aerr != nil {
		return nil, nil, aerr
	}
	if worktreeReads[name] && !(name == "diff" && (slices.Contains(opts, "--cached") || slices.Contains(opts, "--staged"))) {
		if aerr := s.checkIndex(ctx, rp); aerr != nil {
			return nil, nil, aerr
		}
	}
	if name == "commit" && len(paths) == 0 {
		if aerr := s.checkStaged(ctx, rp, cwd); aerr != nil {
			return nil, nil, aerr
		}
	}
	if sub.revisions {
		if aerr := s.checkRevisions(ctx, rp, cwd, opts); aerr != nil {
			return nil, nil, aerr
		}
	}
	args := []string{"--no-pager", name}
	if sub.extDiff {
		// --no-color: color.ui=false does not override a repository's
		// color.diff = always, which wrapped git_diff's every line in
		// escapes.
		args = append(args, "--no-ext-diff", "--no-textconv", "--ignore-submodules=all", "--no-color")
	}
	if name == "status" {
		args = append(args, "--ignore-submodules=all")
	}
	args = append(args, opts...)
	if sub.reads {
		if len(paths) == 0 {
			rel, _ := filepath.Rel(cwd, root.Real)
			paths = []string{filepath.ToSlash(rel)}
		}
		args = append(args, "--")
		args = append(args, paths...)
		args = append(args, Excludes(s.globs, s.rootsIn(rp))...)
		// The secret globs that match across the top's own names (a
		// repository at ~/.config: gh/hosts.yml), from the top.
		args = append(args, Excludes(policy.GlobsBelow(s.pol.Secrets(), rp.top), nil)...)
		args = append(args, s.privateExcludes(rp)...)
		if name == "diff" && !slices.Contains(opts, "--cached") && !slices.Contains(opts, "--staged") {
			keys, aerr := s.linkedKeys(ctx, rp, cwd, args[slices.Index(args, "--")+1:])
			if aerr != nil {
				return nil, nil, aerr
			}
			args = append(args, keys...)
		}
	}
	var stdin []byte
	switch {
	case sub.reads:
		// Its paths are above, with the exclusions.
	case name == "commit" && pathsSize(paths) > maxPathArgs:
		// Thousands of paths passed together more than the kernel lets
		// a program receive (ARG_MAX): commit reads them from its stdin
		// instead, NUL-separated and literal as above, with the meaning
		// of paths on the command line (only they are committed).
		args = append(args, "--pathspec-from-file=-", "--pathspec-file-nul")
		stdin = []byte(strings.Join(paths, "\x00") + "\x00")
	case len(paths) > 0:
		args = append(append(args, "--"), paths...)
	}
	code, stdout, stderr, aerr := s.run(ctx, rp, cwd, name, sub.mutates, args, stdin)
	if aerr != nil {
		return nil, nil, aerr
	}
	return &abi.GitResult{ExitCode: code, Stderr: stderr, Skipped: skipped}, stdout, nil
}

// rootsIn lists the roots inside rp's work tree, as paths from its top:
// the policy matches a glob with a slash from each root, and git matches
// pathspecs from the top.
func (s *server) rootsIn(rp *repo) []string {
	var out []string
	for _, r := range s.pol.Roots() {
		if rel, err := filepath.Rel(rp.top, r.Real); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			out = append(out, filepath.ToSlash(rel))
		}
	}
	return out
}

// privateExcludes are exclusion pathspecs, from rp's top, for juju's own
// folders inside the roots in rp's work tree (its state, config and cache,
// with JUJU_HOME in a root or --root ~): as literal names, since the
// policy matches them as paths, not globs. A root wholly inside one is
// refused before git runs (cwd).
func (s *server) privateExcludes(rp *repo) []string {
	var out []string
	for _, r := range s.pol.Roots() {
		rel, err := filepath.Rel(rp.top, r.Real)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			continue
		}
		for _, p := range r.Private() {
			if p == "." {
				continue
			}
			spec := ":(top,exclude,literal)" + path.Join(filepath.ToSlash(rel), p)
			if !slices.Contains(out, spec) {
				out = append(out, spec)
			}
		}
	}
	return out
}

// isMessage reports whether opts[i] is a commit's message (--message=TEXT,
// or the argument after -m), which git never reads as a transport: a
// message may mention ext:: like any text.
func isMessage(name string, opts []string, i int) bool {
	if name != "commit" || i >= len(opts) {
		return false
	}
	return strings.HasPrefix(opts[i], "--message=") || i > 0 && opts[i-1] == "-m"
}

// split cuts args at the first "--": options and revisions before, paths
// after.
func split(args []string) (opts, paths []string, dashdash bool) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:], true
		}
	}
	return args, nil, false
}

func (s *server) checkOption(name string, sub subcommand, a string) *abi.Error {
	if sub.only != nil {
		for _, o := range sub.only {
			if a == o {
				return nil
			}
		}
		return abi.Errorf(abi.InvalidArgument, "git %s takes only %s here", name, strings.Join(sub.only, ", "))
	}
	if !strings.HasPrefix(a, "-") {
		if sub.pathsAfter {
			return abi.Errorf(abi.InvalidArgument, "git %s takes paths after \"--\", where the path policy checks them; %s came before it", name, abi.Quote(a))
		}
		// A revision (or, for commit, a message after -m). A colon would
		// name a blob by path, or a remote.
		if strings.Contains(a, ":") && name != "commit" {
			return abi.Errorf(abi.InvalidArgument, "%s: a revision cannot name a path with a colon; give paths after \"--\"", abi.Quote(a))
		}
		return nil
	}
	var names []string
	if strings.HasPrefix(a, "--") {
		opt, _, _ := strings.Cut(a, "=")
		names = []string{opt}
		// git takes any unambiguous start of a long option for the option
		// (status, add and commit parse theirs so): --fil=x is --file=x and
		// --amen is --amend. The start of a forbidden name is that name.
		if len(opt) > 2 && !slices.Contains(exactLong, opt) && !slices.Contains(allowedPerSub[name], opt) {
			for _, f := range append(forbiddenPerSub[name], forbidden...) {
				if len(f) > len(opt) && strings.HasPrefix(f, opt) && !slices.Contains(allowedPerSub[name], f) {
					names = append(names, f)
				}
			}
		}
	} else {
		// A cluster of short options (-pn5): every letter counts.
		for _, c := range a[1:] {
			if c >= '0' && c <= '9' {
				continue
			}
			names = append(names, "-"+string(c))
		}
	}
	for _, opt := range names {
		if slices.Contains(forbiddenPerSub[name], opt) || slices.Contains(forbidden, opt) && !slices.Contains(allowedPerSub[name], opt) {
			what := abi.Quote(opt)
			if a != opt && !strings.HasPrefix(a, opt) {
				what = abi.Quote(a) + " (git reads it as " + opt + ")"
			}
			return abi.Errorf(abi.InvalidArgument, "git %s %s is not allowed: juju refuses options that run programs, point git elsewhere, read files or stage by sweep, and their abbreviations; for a commit message use --message=TEXT", name, what)
		}
	}
	return nil
}

// cwd resolves the working folder.
func (s *server) cwd(req string) (string, *policy.Root, *abi.Error) {
	if req == "" {
		req = "."
	}
	r, aerr := s.pol.Resolve(req)
	if aerr != nil {
		return "", nil, aerr
	}
	if !r.Info.IsDir() {
		if r.Link != "" {
			// The path the model gave, not only where it leads, as
			// list_directory names a link to a file.
			return "", nil, abi.Errorf(abi.InvalidArgument, "cwd %q is a link to the file %q, not a folder; give a folder inside a root", r.Name, r.Display)
		}
		return "", nil, abi.Errorf(abi.InvalidArgument, "cwd %q is a file, not a folder; give a folder inside a root", r.Display)
	}
	return filepath.Join(r.Root.Real, filepath.FromSlash(r.Rel)), r.Root, nil
}

// checkPaths checks the paths after "--" (relative to cwd, or absolute
// inside a root). For add, withheld paths are dropped into skipped and
// folders refused; for the others a withheld path is an error.
func (s *server) checkPaths(name, cwd string, root *policy.Root, paths []string) (kept, skipped []string, _ *abi.Error) {
	for _, p := range paths {
		// A name starting with ':' is a file like any other where git
		// gets literal pathspecs (literal); elsewhere git would read
		// pathspec magic in it.
		if p == "" || strings.HasPrefix(p, ":") && !literalPaths(name) {
			return nil, nil, abi.Errorf(abi.InvalidArgument, "%s is not a plain path; pathspec magic is not accepted", abi.Quote(p))
		}
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(cwd, p)
		}
		abs = filepath.Clean(abs)
		var hit *policy.Root
		for _, r := range s.pol.Roots() {
			if rel, err := filepath.Rel(r.Real, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
				hit = r
				break
			}
		}
		if hit == nil {
			return nil, nil, abi.Errorf(abi.PathDenied, "%s is outside the workspace roots; git works on paths inside them", abi.Quote(p))
		}
		rel, _ := filepath.Rel(hit.Real, abs)
		rel = filepath.ToSlash(rel)
		withheld := s.pol.Check(hit, rel)
		if withheld == nil {
			// A path through a symlink is checked where it lands.
			if r, aerr := s.pol.Resolve(abs); aerr != nil && aerr.Code != abi.NotFound {
				withheld = aerr
			} else if aerr == nil && name == "add" && isFolder(abs) {
				return nil, nil, abi.Errorf(abi.InvalidArgument, "%s is a folder; git add takes files here, so nothing is staged by a sweep: name its files (git_commit with all: true stages every visible file)", abi.Quote(p))
			} else if aerr == nil && subcommands[name].mutates {
				withheld = linkedKey(s.pol, r)
			}
		}
		if withheld != nil {
			if name == "add" && (withheld.Code == abi.SecretDenied || withheld.Code == abi.PathDenied) {
				skipped = append(skipped, p)
				continue
			}
			return nil, nil, withheld
		}
		kept = append(kept, p)
	}
	return kept, skipped, nil
}

// literalPaths reports whether the subcommand name gets its paths as
// literal pathspecs: the reading and changing ones.
func literalPaths(name string) bool {
	sub := subcommands[name]
	return sub.reads || sub.mutates
}

// isFolder reports whether abs is a folder itself, not a link to one: git
// add stages a link as the link.
func isFolder(abs string) bool {
	fi, err := os.Lstat(abs)
	return err == nil && fi.IsDir()
}

// literal marks paths as literal pathspecs. The policy checked each as the
// file of that name, and git would read it as a wildcard: ".e*", "[.]env"
// or "*" would stage .env and every key beside it.
func literal(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = ":(literal)" + p
	}
	return out
}

// run runs git with args in dir, on the repository rp, made inert
// (inert.go) and confined where the host can confine it.
// maxPathArgs bounds, in bytes, the paths commit takes as arguments;
// past it they reach git on its stdin. add's callers batch their paths.
const maxPathArgs = 256 << 10

// pathsSize is what paths take of a program's arguments, NUL-terminated.
func pathsSize(paths []string) int {
	n := 0
	for _, p := range paths {
		n += len(p) + 1
	}
	return n
}

// run runs git with args, stdin (nil: none) on its standard input.
func (s *server) run(ctx context.Context, rp *repo, dir, name string, mutates bool, args []string, stdin []byte) (int, []byte, string, *abi.Error) {
	// git stops a little before the plugin call's deadline, so the plugin
	// hears TIMEOUT and can answer without git (a git that waits on a FIFO
	// named .gitignore would otherwise take the plugin down with it).
	timeout := s.opts.Timeout
	if dl, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(dl)-deadlineMargin)
	}
	if timeout <= 0 {
		return 0, nil, "", abi.Errorf(abi.Timeout, "the call had no time left to run git %s; try again", name)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	env := append(append([]string(nil), s.env...), rp.env()...)
	var drivers []string
	if !mutates {
		out, err := s.listConfig(ctx, dir, env)
		if err != nil {
			s.log.Error("git config --list failed", "err", err)
			return 0, nil, "", abi.Errorf(abi.Internal, "git could not read the repository's configuration; check it with git on the terminal, and tell the owner if it persists")
		}
		drivers = repoDrivers(out, s.ownerFile)
		env = append(env, readEnv...)
	}
	env = append(env, configEnv(mutates, drivers)...)
	argv := append([]string{"git"}, args...)
	if mutates && s.opts.ConfineWrite != nil {
		wrapped, aerr := s.opts.ConfineWrite(dir, argv)
		if aerr != nil {
			return 0, nil, "", aerr
		}
		if len(wrapped) != len(argv) && !s.confinedCanWrite(rp) {
			return 0, nil, "", abi.Errorf(abi.PathDenied, "git %s was not run, and nothing was staged or committed: it runs confined like a command, which writes only inside the workspace roots, and this repository's git folder lies outside them or inside another repository's (the root is a linked worktree, a submodule's checkout, or a folder below the repository's top). Commit with git on the terminal, or ask the owner to serve the repository's own checkout, the folder holding its .git folder, as the root", name)
		}
		argv = wrapped
	} else if !mutates && s.opts.ConfineRead != nil {
		if wrapped, err := s.opts.ConfineRead(dir, []string{rp.top, rp.gitDir, rp.common}, argv); err == nil {
			argv = wrapped
		} else {
			s.log.Debug("git read runs unconfined", "err", err)
		}
	}
	cmd := proc.Command(ctx, dir, env, argv...)
	stdout, stderr := proc.NewCapped(s.opts.MaxOutput), proc.NewCapped(64<<10)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var err error
	if mutates {
		// add and commit run the repository's hooks, confined as a
		// command is, and like a command uncapped: a linter a hook runs
		// may need more than git does. What a hook leaves running ends
		// with git, as a command's orphans end with its job: unconfined,
		// nothing else would stop a hook's `(setsid x &)`, which outlived
		// juju, and whose hold on git's output had the commit it made
		// answered as git failing to run (confined, its sandbox ends it).
		marker := hookVar + "=" + s.nonce + "-" + strconv.FormatUint(s.runs.Add(1), 10)
		cmd.Env = append(cmd.Env, marker)
		err = cmd.Run()
		if cmd.Process != nil { // nil: git did not start
			proc.KillGroup(cmd.Process.Pid)
		}
		if left := proc.Adopted(marker); len(left) > 0 {
			proc.StopTree(left...).Kill()
		}
		if errors.Is(err, osexec.ErrWaitDelay) {
			// git ended well; only what it left held its output open.
			err = nil
		}
	} else {
		err = s.runCmd(cmd)
	}
	if ctx.Err() != nil && mutates {
		// add and commit wait on the repository's hooks and filters, which
		// a narrower request waits on as long, or stage too much.
		return 0, nil, "", abi.Errorf(abi.Timeout, "git %s did not finish in time and was stopped: a hook of the repository's (pre-commit, commit-msg, post-commit …) or a filter it runs may wait for ever (on input it never gets or, in the sandbox, on a network it cannot reach), or the change was too large to stage in the time; check with git_status and git_log what was staged or committed, then commit the rest in parts with paths, or ask the owner to look at the hooks or to commit on the terminal", name)
	}
	if ctx.Err() != nil {
		return 0, nil, "", abi.Errorf(abi.Timeout, "git %s did not finish in time and was stopped; narrow it (paths, a limit) and try again (a FIFO or a slow mount in the work tree, which git opens as it reads .gitignore files, can hold it)", name)
	}
	var ee *osexec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
	case errors.Is(err, osexec.ErrNotFound):
		return 0, nil, "", errNoGit()
	case proc.TooLong(err):
		return 0, nil, "", abi.Errorf(abi.TooLarge, "git %s's arguments are longer together than the system lets a program receive; give fewer paths, or commit in parts", name)
	default:
		s.log.Error("git failed to run", "err", err)
		return 0, nil, "", abi.Errorf(abi.Internal, "git could not be run; try again, and tell the owner if it persists")
	}
	errText := stderr.String()
	if err != nil && !mutates && outOfMemory(errText) {
		return 0, nil, "", abi.Errorf(abi.TooLarge, "git %s needed more than the %d MiB of memory juju lets it use and was stopped: a setting of the repository's that makes git read a device or a huge file whole (diff.orderFile, core.attributesFile, core.bigFileThreshold), or a huge object, can do that; ask the owner to check the repository with git on the terminal", name, s.opts.MaxData>>20)
	}
	if stdout.Cut {
		errText += fmt.Sprintf("\n[juju: git's output was cut at %d bytes; narrow the request]", s.opts.MaxOutput)
	}
	return cmd.ProcessState.ExitCode(), stdout.Bytes(), errText, nil
}

// confinedCanWrite reports whether a confined command can write rp's git
// folders, as git add and commit must: each lies inside a root, and
// inside no other repository's git folder, whose worktrees and modules
// (a linked worktree's and a submodule's git folders) the sandbox keeps
// read-only with the rest of its control files (sandbox.GitControl).
func (s *server) confinedCanWrite(rp *repo) bool {
	for _, d := range []string{rp.gitDir, rp.common} {
		ok := false
		for _, r := range s.pol.Roots() {
			rel, err := filepath.Rel(r.Real, d)
			if err != nil || !policy.Within(d, r.Real) {
				continue
			}
			parts := strings.Split(filepath.ToSlash(rel), "/")
			ok = !slices.Contains(parts[:len(parts)-1], ".git")
			break
		}
		if !ok {
			return false
		}
	}
	return true
}

// startCmd starts cmd, a git, and caps its data memory at MaxData: past
// it an allocation fails and git ends ("Out of memory"). The cap is set
// just after the start, before git has read anything of the repository's;
// a sandbox's wrapper passes it on to the git it starts.
func (s *server) startCmd(cmd *osexec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	if err := proc.LimitData(cmd.Process.Pid, s.opts.MaxData); err != nil {
		s.log.Warn("git: the memory cap could not be set", "err", err)
	}
	return nil
}

// runCmd is cmd.Run with startCmd's cap.
func (s *server) runCmd(cmd *osexec.Cmd) error {
	if err := s.startCmd(cmd); err != nil {
		return err
	}
	return cmd.Wait()
}

// output is cmd.Output with startCmd's cap.
func (s *server) output(cmd *osexec.Cmd) ([]byte, error) {
	var b bytes.Buffer
	cmd.Stdout = &b
	err := s.runCmd(cmd)
	return b.Bytes(), err
}

// outOfMemory reports whether git's stderr says an allocation failed, as
// it does past MaxData ("fatal: Out of memory, realloc failed").
func outOfMemory(stderr string) bool {
	return strings.Contains(stderr, "Out of memory") || strings.Contains(stderr, "Cannot allocate memory")
}

// errNoGit is the error of a call made while git is not on the PATH.
func errNoGit() *abi.Error {
	return abi.Errorf(abi.NotFound, "git is not installed on this machine; ask the owner to install it")
}

// argsError refuses an argument no program can receive (proc.CheckArgv),
// before anything runs: a NUL byte, or one of 128 KiB or more (a
// revision, a message).
func argsError(args []string) *abi.Error {
	var ae *proc.ArgError
	if !errors.As(proc.CheckArgv(args), &ae) {
		return nil
	}
	if errors.Is(ae, proc.ErrArgNUL) {
		return abi.Errorf(abi.InvalidArgument, "the git argument %s holds a NUL byte, which no program can receive; remove it", abi.Quote(args[ae.Index]))
	}
	return abi.Errorf(abi.TooLarge, "the git argument %s is longer than the %d KiB the system lets one program argument be; shorten it", abi.Quote(args[ae.Index]), proc.MaxArg>>10)
}
