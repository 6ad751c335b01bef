package exec

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// maxRefusal bounds the escaped text of what the hooks and git said when
// a commit was refused: the error is a sentence and an excerpt, the whole
// output of a failing hook is for the owner's terminal.
const maxRefusal = 3000

// GitCommitArgs are the arguments of git_commit.
type GitCommitArgs struct {
	Message string   `json:"message" jsonschema:"required" min:"1" max:"65536" desc:"The commit message (at most 64 KiB)."`
	Paths   []string `json:"paths,omitempty" desc:"Stage and commit exactly these files (other staged changes stay staged, uncommitted)."`
	All     bool     `json:"all,omitempty" desc:"Stage and commit every changed file juju lets you see (secrets and denied paths are never staged; never git add -A)."`
	Cwd     string   `json:"cwd,omitempty" desc:"A folder inside the repository (default: the first root)."`
}

// GitCommitResult is the structured content of git_commit.
type GitCommitResult struct {
	Commit  string   `json:"commit" desc:"The new commit's hash."`
	Branch  string   `json:"branch" desc:"The branch it was made on."`
	Summary string   `json:"summary" desc:"git's summary line."`
	Staged  []string `json:"staged" desc:"The paths this call staged."`
	Skipped []string `json:"skipped,omitempty" desc:"Paths left out: those the path policy withholds (secrets, denied paths) and, with all, folders git shows whole (an untracked nested repository, ending in /), which would stage by sweep, and names that are not UTF-8, which no argument can carry."`
	Hooks   string   `json:"hooks,omitempty" desc:"What the repository's hooks and git printed on stderr."`
}

func init() {
	juju.Tool("git_commit", execTool("Git commit",
		"Commits with the owner's git identity, running the repository's hooks (a failing pre-commit hook refuses the commit: fix what it says and retry). "+
			"Give paths to stage and commit those files, or all: true to stage every visible change (secrets are never staged), "+
			"or neither to commit what is already staged.",
		GitCommitResult{}, abi.Annotations{Destructive: false}), gitCommit)
}

func gitCommit(_ *juju.Call, in GitCommitArgs) (*juju.Result, error) {
	if in.All && len(in.Paths) > 0 {
		return nil, juju.Errorf(abi.InvalidArgument, "give paths or all: true, not both")
	}
	res := GitCommitResult{Staged: []string{}}
	paths := in.Paths
	var folders, withheld, notText []string
	if in.All {
		out, _, err := git(in.Cwd, "status", "--porcelain=v1", "-z", "--untracked-files=all")
		if err != nil {
			return nil, err
		}
		prefix, _, err := git(in.Cwd, "rev-parse", "--show-prefix")
		if err != nil {
			return nil, err
		}
		p := strings.TrimSpace(string(prefix))
		files := parseStatus(out).Files
		for _, f := range files {
			if f.Unstaged == " " {
				// Its change is staged whole (a deletion or rename made
				// with git rm or git mv among them): the commit takes it
				// from the index, and add would fail on a name that is
				// neither in the work tree nor in the index.
				continue
			}
			// The new name only: the old name of a staged rename or copy
			// is staged already. Status paths are from the repository's
			// top; add takes them from cwd, which the prefix names.
			rel, ok := strings.CutPrefix(f.Path, p)
			if !ok || rel == "" {
				// Outside cwd, or cwd itself (a nested repository).
				continue
			}
			if !utf8.ValidString(rel) {
				// A name that is not UTF-8 reaches git as a JSON string,
				// its bytes turned into U+FFFD: a name of no file, and
				// add would fail the whole commit.
				notText = append(notText, rel)
				continue
			}
			if strings.HasSuffix(rel, "/") {
				// A folder git shows whole (an untracked nested
				// repository): adding it would stage by sweep.
				folders = append(folders, rel)
				continue
			}
			paths = append(paths, rel)
		}
		staged := anyStaged(files)
		if len(paths) == 0 && !staged && len(folders) > 0 {
			return nil, juju.Errorf(abi.InvalidArgument, "there is nothing to commit but folders git shows whole (%s: a nested repository, or one untracked as a whole); commit their files by name with paths, or run git in a nested repository with run_command", strings.Join(quoteAll(folders), ", "))
		}
		if len(paths) == 0 && !staged && len(notText) > 0 {
			return nil, juju.Errorf(abi.InvalidArgument, "there is nothing to commit but files whose names are not UTF-8 (%s), which juju's tools cannot name; commit them with run_command (git add and git commit)", strings.Join(quoteAll(notText), ", "))
		}
		if len(paths) == 0 && !staged {
			return nil, juju.Errorf(abi.InvalidArgument, "there is nothing to commit: git_status shows no visible change")
		}
		res.Skipped = append(append(res.Skipped, folders...), notText...)
	}
	if len(paths) > 0 {
		var err error
		withheld, err = addAll(in.Cwd, paths, len(in.Paths) > 0)
		if err != nil {
			return nil, err
		}
		res.Skipped = append(append([]string(nil), withheld...), res.Skipped...)
		for _, p := range paths {
			if !contains(withheld, p) {
				res.Staged = append(res.Staged, p)
			}
		}
		if len(res.Staged) == 0 {
			return nil, juju.Errorf(withheldCode(in.Cwd, withheld), "every path given is withheld by the path policy (%s); nothing was staged or committed. Commit the other changes without them, or leave them to the owner, who can commit them on the terminal", strings.Join(quoteAll(withheld), ", "))
		}
	}
	args := []string{"commit", "--message=" + in.Message}
	if len(in.Paths) > 0 {
		args = append(append(args, "--"), res.Staged...)
	}
	r, out, err := juju.Git(abi.GitRequest{Args: args, Cwd: in.Cwd})
	if err != nil {
		return nil, err
	}
	if r.ExitCode != 0 {
		if err := stateRefusal(r.Stderr); err != nil {
			return nil, err
		}
		if nothingStaged(in.Cwd, res.Staged) {
			// git printed its status, which names every untracked file,
			// secrets too: the refusal says what to pass instead.
			if len(in.Paths) > 0 {
				return nil, juju.Errorf(abi.InvalidArgument, "the paths given have no change to commit (they match the last commit), so nothing was committed; check them with git_status")
			}
			return nil, juju.Errorf(abi.InvalidArgument, "nothing is staged, so nothing was committed; give paths (the files to stage and commit) or all: true (every change git_status shows)")
		}
		// What the hooks and git said is on stderr (git runs hooks with
		// their stdout on its stderr); a refused commit's stdout is git's
		// status, which names every untracked file, secrets too.
		var why strings.Builder
		writeFenced(&why, "git output", juju.Fence(), strings.TrimSpace(r.Stderr), maxRefusal)
		return nil, juju.Errorf(abi.Conflict, "git commit was refused (exit %d), nothing was committed; the hooks and git said:\n%s", r.ExitCode, why.String())
	}
	res.Hooks = strings.TrimSpace(r.Stderr)
	res.Summary = firstLine(string(out))
	if h, _, err := git(in.Cwd, "rev-parse", "HEAD"); err == nil {
		res.Commit = strings.TrimSpace(string(h))
	}
	if b, _, err := git(in.Cwd, "branch", "--show-current"); err == nil {
		res.Branch = strings.TrimSpace(string(b))
	}
	on := juju.LineText(res.Branch)
	if res.Branch == "" {
		// No branch: HEAD is detached, as git_status names it.
		res.Branch, on = "(detached)", "a detached HEAD"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "committed %s on %s\n%s\n", res.Commit, on, cleanLine(res.Summary))
	if len(res.Staged) > 0 {
		fmt.Fprintf(&b, "staged: %s\n", strings.Join(quoteAll(res.Staged), ", "))
	}
	if len(withheld) > 0 {
		fmt.Fprintf(&b, "left out (withheld by the path policy): %s\n", strings.Join(quoteAll(withheld), ", "))
	}
	if len(folders) > 0 {
		fmt.Fprintf(&b, "left out (folders git shows whole, such as a nested repository; commit their files by name): %s\n", strings.Join(quoteAll(folders), ", "))
	}
	if len(notText) > 0 {
		fmt.Fprintf(&b, "left out (names that are not UTF-8, which juju's tools cannot name; commit them with run_command): %s\n", strings.Join(quoteAll(notText), ", "))
	}
	if res.Hooks != "" {
		b.WriteString("hooks and git said:\n")
		if used := writeFenced(&b, "git output", juju.Fence(), res.Hooks, maxStreamText); used < len(res.Hooks) {
			fmt.Fprintf(&b, "[juju cut what they said after %d of %d bytes]\n", used, len(res.Hooks))
		}
	}
	return juju.Text(b.String()).WithStructured(res), nil
}

// addBatch bounds the paths of one git add, in bytes: all:true in a
// workspace of tens of thousands of changed files (a vendored or
// generated tree) passed together more than the kernel lets a program
// receive (ARG_MAX, 2 MiB with the usual stack limit; 6 MiB at most), and
// the refusal left the model git add -A on the terminal, which stages
// secrets too.
const addBatch = 256 << 10

// addAll stages paths (relative to cwd) in batches of at most addBatch
// bytes, and returns the paths the path policy withheld. given says the
// caller named them.
func addAll(cwd string, paths []string, given bool) ([]string, error) {
	var withheld []string
	for len(paths) > 0 {
		n, size := 0, 0
		for n < len(paths) && (n == 0 || size+argSize(paths[n]) <= addBatch) {
			size += argSize(paths[n])
			n++
		}
		batch := paths[:n]
		paths = paths[n:]
		_, r, err := git(cwd, append([]string{"add", "--"}, batch...)...)
		if err != nil && r != nil && given && strings.Contains(r.Stderr, "did not match any files") {
			// A path given whose change is staged whole (git rm, git
			// mv) is in neither the work tree nor the index, and add
			// fails on it: git commit takes it from the index as it is.
			r, err = addUnstaged(cwd, batch, err)
		}
		if err != nil {
			return nil, err
		}
		withheld = append(withheld, r.Skipped...)
	}
	return withheld, nil
}

// argSize is what path takes of git add's arguments: the host passes it
// as a literal pathspec, NUL-terminated.
func argSize(path string) int { return len(":(literal)") + len(path) + 1 }

// withheldCode is the code of a refusal of paths add left out, each
// withheld by the path policy: SECRET_DENIED when one is a secret, else
// PATH_DENIED (the owner's deny rules), as the other tools say it. git's
// reading subcommands refuse a withheld path with its own code.
func withheldCode(cwd string, paths []string) abi.Code {
	for _, p := range paths {
		_, _, err := git(cwd, "ls-files", "--", p)
		if e, ok := juju.AsError(err); !ok || e.Code != abi.PathDenied {
			// A secret (a hard link to a private key, which only add
			// withholds, among them), or a path whose kind is not
			// known: the stricter.
			return abi.SecretDenied
		}
	}
	return abi.PathDenied
}

// anyStaged reports whether git_status's files hold a staged change.
func anyStaged(files []GitFileInfo) bool {
	for _, f := range files {
		if f.Staged != " " && f.Staged != "?" {
			return true
		}
	}
	return false
}

// addUnstaged stages the paths (relative to cwd) but those whose change
// is staged whole, a deletion or a rename's old name: git add fails on a
// name in neither the work tree nor the index. addErr, add's failure on
// all of them, is returned when no path is so staged.
func addUnstaged(cwd string, paths []string, addErr error) (*abi.GitResult, error) {
	out, _, err := git(cwd, append([]string{"status", "--porcelain=v1", "-z", "--untracked-files=no", "--"}, paths...)...)
	if err != nil {
		return nil, addErr
	}
	prefix, _, err := git(cwd, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, addErr
	}
	p := strings.TrimSpace(string(prefix))
	staged := map[string]bool{}
	for _, f := range parseStatus(out).Files {
		if f.Unstaged == " " {
			staged[strings.TrimPrefix(f.Path, p)] = true
		}
		if f.From != "" {
			staged[strings.TrimPrefix(f.From, p)] = true
		}
	}
	var rest []string
	for _, path := range paths {
		if !staged[path] {
			rest = append(rest, path)
		}
	}
	if len(rest) == len(paths) {
		return nil, addErr
	}
	if len(rest) == 0 {
		return &abi.GitResult{}, nil
	}
	_, r, err := git(cwd, append([]string{"add", "--"}, rest...)...)
	return r, err
}

// nothingStaged reports whether a refused commit had nothing to commit:
// no staged change (to paths, when given) and no merge being concluded,
// which commits even with none.
//
// The paths are looked at in batches of at most addBatch bytes, as add
// stages them: thousands of them passed together more than the kernel
// lets a program receive, and the diff's failure read as "something is
// staged".
func nothingStaged(cwd string, paths []string) bool {
	for first := true; first || len(paths) > 0; first = false {
		n, size := 0, 0
		for n < len(paths) && (n == 0 || size+argSize(paths[n]) <= addBatch) {
			size += argSize(paths[n])
			n++
		}
		out, _, err := git(cwd, append([]string{"diff", "--cached", "--name-only", "-z", "--"}, paths[:n]...)...)
		if err != nil || len(out) > 0 {
			return false
		}
		paths = paths[n:]
	}
	r, _, err := juju.Git(abi.GitRequest{Args: []string{"rev-parse", "-q", "--verify", "MERGE_HEAD"}, Cwd: cwd})
	return err == nil && r.ExitCode != 0
}

// quoteAll is each path as a line of text shows it (juju.PathText).
func quoteAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = juju.PathText(p)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
