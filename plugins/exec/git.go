package exec

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// maxDiff is the most diff text a reply carries, and maxLog the most bytes
// of git_log's text and, apart, of its structured content: each stays
// under the 100,000 bytes a client takes (SPEC §4).
const (
	maxDiff = 90_000
	maxLog  = 90_000
)

// maxStatus is the most bytes of git_status's lines of files and, apart,
// of its structured files: tens of thousands of untracked files (a build
// output not ignored) passed what a client takes, and the host's cut left
// the structured content without files.
const maxStatus = 90_000

// gitOutputCut is how the git host function says it cut git's output.
const gitOutputCut = "[juju: git's output was cut"

// GitStatusArgs are the arguments of git_status.
type GitStatusArgs struct {
	Cwd string `json:"cwd,omitempty" desc:"A folder inside the repository (default: the first root)."`
}

// GitStatus is the structured content of git_status.
type GitStatus struct {
	Branch    string         `json:"branch" desc:"The current branch, or (detached)."`
	Upstream  string         `json:"upstream,omitempty" desc:"Its upstream branch, if any."`
	Gone      bool           `json:"upstreamGone,omitempty" desc:"The upstream branch no longer exists (deleted on the remote and pruned): ahead and behind say nothing."`
	Ahead     int            `json:"ahead,omitempty" desc:"Commits ahead of the upstream."`
	Behind    int            `json:"behind,omitempty" desc:"Commits behind the upstream."`
	Clean     bool           `json:"clean" desc:"Nothing changed, staged or untracked."`
	Operation string         `json:"operation,omitempty" desc:"An operation stopped midway, to finish or abort: merge, rebase, cherry-pick or revert."`
	Files     []GitFileInfo  `json:"files" desc:"Each changed path (secrets and denied paths are never listed), up to the size cap."`
	Truncated bool           `json:"truncated,omitempty" desc:"files stops at the size cap: narrow with cwd (a folder), or run git status with run_command."`
	Omitted   map[string]int `json:"omitted,omitempty" desc:"With truncated: how many changed paths are not listed, by state (the staged and unstaged letters together, ?? for untracked)."`
	// unborn: the branch has no commit yet (git's "No commits yet").
	unborn bool
}

// GitFileInfo is one path of git_status.
type GitFileInfo struct {
	Path     string `json:"path" desc:"The path, relative to the repository's top."`
	From     string `json:"from,omitempty" desc:"For a rename or copy: the old path."`
	Staged   string `json:"staged" desc:"The staged change, as git's porcelain letter: M modified, T type changed, A added, D deleted, R renamed, C copied, U unmerged (a merge conflict: UU both modified, AA both added …), ? untracked, space for none."`
	Unstaged string `json:"unstaged" desc:"The unstaged change, same letters."`
}

// GitDiffArgs are the arguments of git_diff.
type GitDiffArgs struct {
	Staged       bool     `json:"staged,omitempty" desc:"Show the staged changes (git diff --cached) instead of the unstaged ones."`
	Paths        []string `json:"paths,omitempty" desc:"Limit the diff to these files or folders."`
	Revision     string   `json:"revision,omitempty" max:"1024" desc:"Compare with this commit or range instead (e.g. HEAD~1, main...HEAD)."`
	ContextLines int      `json:"contextLines,omitempty" min:"0" max:"100" default:"3" desc:"Lines of context around each change."`
	Offset       int      `json:"offset,omitempty" min:"0" desc:"The byte of the diff to start from: pass the nextOffset of a cut diff, with the same other arguments, to read on."`
	Cwd          string   `json:"cwd,omitempty" desc:"A folder inside the repository (default: the first root)."`
}

// GitDiff is the structured content of git_diff: the shape of the diff
// the text shows, not the diff again.
type GitDiff struct {
	Bytes      int  `json:"bytes" desc:"The whole diff's size in bytes."`
	Offset     int  `json:"offset,omitempty" desc:"The first byte of the diff the text shows."`
	Shown      int  `json:"shown" desc:"How many bytes of the diff the text shows."`
	Cut        bool `json:"cut,omitempty" desc:"The text stops before the end of the diff: read on with offset nextOffset, or narrow it with paths."`
	NextOffset int  `json:"nextOffset,omitempty" desc:"The offset to pass to read on, when the diff goes on."`
	Incomplete bool `json:"incomplete,omitempty" desc:"git's output passed juju's bound (8 MB): the diff ends early; narrow it with paths."`
}

// GitLogArgs are the arguments of git_log.
type GitLogArgs struct {
	Limit    int    `json:"limit,omitempty" min:"1" max:"500" default:"20" desc:"How many commits, newest first; a result is also cut before it reaches about 90 KB."`
	Offset   int    `json:"offset,omitempty" min:"0" max:"100000000" desc:"How many of the newest commits to skip: pass the nextOffset of a cut log to read on."`
	Path     string `json:"path,omitempty" desc:"Only the commits that touched this file or folder."`
	Revision string `json:"revision,omitempty" max:"1024" desc:"Start from this commit or range instead of HEAD."`
	Cwd      string `json:"cwd,omitempty" desc:"A folder inside the repository (default: the first root)."`
}

// GitLog is the structured content of git_log.
type GitLog struct {
	Commits    []GitCommitInfo `json:"commits" desc:"The commits, newest first."`
	Truncated  bool            `json:"truncated,omitempty" desc:"The commits stop at the size cap before limit: read on with offset nextOffset."`
	NextOffset int             `json:"nextOffset,omitempty" desc:"The offset to pass to list the commits after these, when the log was cut."`
}

// GitCommitInfo is one commit of git_log.
type GitCommitInfo struct {
	Hash    string `json:"hash" desc:"The full commit hash."`
	Author  string `json:"author" desc:"The author's name."`
	Email   string `json:"email" desc:"The author's email."`
	Date    string `json:"date" desc:"The author date (ISO 8601)."`
	Subject string `json:"subject" desc:"The first line of the message."`
}

func init() {
	juju.Tool("git_status", readTool("Git status",
		"Shows the repository's branch, its upstream and the changed, staged and untracked files, from the real git. Secrets are never listed.",
		GitStatus{}), gitStatus)
	juju.Tool("git_diff", readTool("Git diff",
		"Shows the unstaged changes as a unified diff (staged: true for the staged ones, revision to compare with a commit), optionally for some paths only. "+
			"A diff longer than about 90 KB is cut at a line, and offset reads on.",
		GitDiff{}), gitDiff)
	juju.Tool("git_log", readTool("Git log",
		"Lists recent commits, newest first: hash, author, date and subject; optionally only those touching a path. "+
			"offset skips the newest ones, to read on after a cut log.",
		GitLog{}), gitLog)
}

// git runs the git host function and fails on a non-zero exit.
func git(cwd string, args ...string) ([]byte, *abi.GitResult, error) {
	r, out, err := juju.Git(abi.GitRequest{Args: args, Cwd: cwd})
	if err != nil {
		return nil, nil, err
	}
	if r.ExitCode != 0 {
		msg := strings.TrimSpace(r.Stderr)
		if strings.Contains(msg, "not a git repository") {
			where := "the workspace root"
			if cwd != "" && cwd != "." {
				where = juju.PathText(cwd)
			}
			return nil, nil, juju.Errorf(abi.NotFound, "%s is not inside a git repository; pass as cwd a folder inside one, or ask the owner whether to make one (git init with run_command)", where)
		}
		if err := stateRefusal(msg); err != nil {
			return nil, r, err
		}
		return nil, r, juju.Errorf(abi.InvalidArgument, "git %s failed (exit %d): %s; %s", args[0], r.ExitCode, cleanLine(clip(msg, 2000)), nextStep(args[0]))
	}
	return out, r, nil
}

// stateRefusal is the error for a git that stopped on the state of the
// repository or of the owner's setup rather than on its arguments, said
// with what to do next, never with git's own text, which names the
// repository's absolute path or the owner's user and host names; nil
// for any other failure.
//
//   - A lock file: another git is working in the repository, or one
//     crashed and left its lock (index.lock) behind.
//   - No identity: neither the owner's nor the repository's configuration
//     sets user.name and user.email, and git would not guess them.
func stateRefusal(stderr string) error {
	if _, rest, ok := strings.Cut(stderr, "Unable to create '"); ok && strings.Contains(rest, ".lock': File exists") {
		name, _, _ := strings.Cut(rest, "': File exists")
		lock := "index.lock"
		if !strings.HasSuffix(name, "/index.lock") {
			lock = name[strings.LastIndexByte(name, '/')+1:]
			if i := strings.LastIndex(name, "/.git/"); i >= 0 {
				lock = name[i+len("/.git/"):]
			}
		}
		return juju.Errorf(abi.Conflict, "another git process is working in this repository: git found its lock file %s (in the repository's git folder) and stopped, and nothing was changed. Wait for that git to finish and call again; if no git is running, one crashed and left the lock behind: remove it with run_command (rm -f \"$(git rev-parse --git-path %s)\") and call again",
			juju.PathText(lock), strings.ReplaceAll(lock, `"`, `\"`))
	}
	if strings.Contains(stderr, "identity unknown") || strings.Contains(stderr, "unable to auto-detect email address") || strings.Contains(stderr, "empty ident name") || strings.Contains(stderr, "auto-detection is disabled") {
		return juju.Errorf(abi.Conflict, "git has no identity to commit with: user.name and user.email are not both set, so nothing was committed. Ask the owner to set them on their terminal (git config --global user.name \"Their Name\" and git config --global user.email they@example.com) and call again; juju commits only as the owner, and its commands cannot change git's configuration")
	}
	return nil
}

// hasCommit reports whether revision (HEAD when empty) names a commit: a
// second git run, made only when a log came back empty.
func hasCommit(cwd, revision string) bool {
	if revision == "" {
		revision = "HEAD"
	}
	_, _, err := git(cwd, "rev-parse", "--verify", "--quiet", revision+"^{commit}")
	return err == nil
}

// nextStep is what a failed git's error tells the model to check: for a
// read, the revision and paths it gave; for add, the paths.
func nextStep(sub string) string {
	switch sub {
	case "add":
		return "check each path with git_status (paths are relative to cwd) and call again"
	case "log", "diff", "show":
		return "check the revision (git_log lists commits) and the paths, and call again"
	}
	return "check the arguments and call again"
}

func gitStatus(_ *juju.Call, in GitStatusArgs) (*juju.Result, error) {
	out, _, err := git(in.Cwd, "status", "--porcelain=v1", "-z", "--branch", "--untracked-files=all")
	if err != nil {
		return nil, err
	}
	st := parseStatus(out)
	switch {
	case unmerged(st.Files):
		st.Operation = operation(in.Cwd, operations)
	case st.Branch == "(detached)":
		// A rebase stopped at a commit to edit has no conflict; a
		// detached HEAD (a CI checkout) asks one git run more, not four.
		st.Operation = operation(in.Cwd, operations[1:2])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "branch %s", juju.LineText(st.Branch))
	if st.unborn {
		b.WriteString(", no commits yet")
	}
	switch {
	case st.Gone:
		fmt.Fprintf(&b, " → %s (gone: deleted on the remote)", juju.LineText(st.Upstream))
	case st.Upstream != "":
		fmt.Fprintf(&b, " → %s (ahead %d, behind %d)", juju.LineText(st.Upstream), st.Ahead, st.Behind)
	}
	b.WriteString("\n")
	if st.Operation != "" {
		b.WriteString(operationText[st.Operation] + "\n")
	}
	if st.Clean {
		b.WriteString("clean: nothing to commit\n")
	}
	text, structured := 0, 0
	for i, f := range st.Files {
		line := fmt.Sprintf("%s%s %s", f.Staged, f.Unstaged, juju.PathText(f.Path))
		if f.From != "" {
			line += fmt.Sprintf(" (from %s)", juju.PathText(f.From))
		}
		line += "\n"
		n := len(`{"path":"","from":"","staged":"","unstaged":""},`) + abi.JSONLen(f.Path) + abi.JSONLen(f.From) + abi.JSONLen(f.Staged) + abi.JSONLen(f.Unstaged)
		if text+len(line) > maxStatus || structured+n > maxStatus {
			st.Truncated, st.Omitted = true, map[string]int{}
			for _, g := range st.Files[i:] {
				st.Omitted[g.Staged+g.Unstaged]++
			}
			st.Files = st.Files[:i]
			break
		}
		b.WriteString(line)
		text += len(line)
		structured += n
	}
	if st.Truncated {
		states := make([]string, 0, len(st.Omitted))
		for k := range st.Omitted {
			states = append(states, k)
		}
		slices.Sort(states)
		var counts []string
		total := 0
		for _, k := range states {
			counts = append(counts, fmt.Sprintf("%d %q", st.Omitted[k], k))
			total += st.Omitted[k]
		}
		fmt.Fprintf(&b, "[Showing %d changed paths, the most one result holds; %d more are not listed (by state: %s). Call git_status with cwd set to a folder to list fewer, or run git status with run_command.]\n", len(st.Files), total, strings.Join(counts, ", "))
	}
	return juju.Text(b.String()).WithStructured(st), nil
}

// operations are the operations git_status names when one stopped midway,
// each by the pseudo-ref git keeps while it is under way.
var operations = []struct{ name, ref string }{
	{"merge", "MERGE_HEAD"}, {"rebase", "REBASE_HEAD"}, {"cherry-pick", "CHERRY_PICK_HEAD"}, {"revert", "REVERT_HEAD"},
}

// operationText is what git_status says of each: what git's own status
// says, with juju's tools.
var operationText = map[string]string{
	"merge":       "merge in progress: resolve the conflicts (U), then git_commit with all: true concludes the merge; or abort it with run_command (git merge --abort)",
	"rebase":      "rebase in progress, stopped at a commit: resolve any conflicts (U) and stage them, then continue with run_command (git rebase --continue), or skip the commit (git rebase --skip) or abort (git rebase --abort)",
	"cherry-pick": "cherry-pick in progress: resolve the conflicts (U) and stage them, then continue with run_command (git cherry-pick --continue), or abort it (git cherry-pick --abort)",
	"revert":      "revert in progress: resolve the conflicts (U) and stage them, then continue with run_command (git revert --continue), or abort it (git revert --abort)",
}

// unmerged reports whether files hold a merge conflict.
func unmerged(files []GitFileInfo) bool {
	for _, f := range files {
		if f.Staged == "U" || f.Unstaged == "U" || f.Staged+f.Unstaged == "AA" || f.Staged+f.Unstaged == "DD" {
			return true
		}
	}
	return false
}

// operation names the operation of ops stopped midway in the
// repository, "" when none: one git run per operation until one is found.
func operation(cwd string, ops []struct{ name, ref string }) string {
	for _, op := range ops {
		r, _, err := juju.Git(abi.GitRequest{Args: []string{"rev-parse", "-q", "--verify", op.ref}, Cwd: cwd})
		if err == nil && r.ExitCode == 0 {
			return op.name
		}
	}
	return ""
}

// parseStatus reads `git status --porcelain=v1 -z --branch`.
func parseStatus(out []byte) GitStatus {
	st := GitStatus{Files: []GitFileInfo{}}
	recs := strings.Split(string(out), "\x00")
	for i := 0; i < len(recs); i++ {
		r := recs[i]
		if len(r) < 3 {
			continue
		}
		if strings.HasPrefix(r, "## ") {
			parseBranch(r[3:], &st)
			continue
		}
		f := GitFileInfo{Staged: r[:1], Unstaged: r[1:2], Path: r[3:]}
		if (f.Staged == "R" || f.Staged == "C") && i+1 < len(recs) {
			i++
			f.From = recs[i]
		}
		st.Files = append(st.Files, f)
	}
	st.Clean = len(st.Files) == 0
	return st
}

// parseBranch reads "main...origin/main [ahead 1, behind 2]",
// "main...origin/main [gone]", "No commits yet on main" or "HEAD (no
// branch)".
func parseBranch(s string, st *GitStatus) {
	if rest, ok := strings.CutPrefix(s, "No commits yet on "); ok {
		st.Branch, st.unborn = rest, true
		return
	}
	if strings.HasPrefix(s, "HEAD (no branch)") {
		st.Branch = "(detached)"
		return
	}
	head, track, _ := strings.Cut(s, " [")
	st.Branch, st.Upstream, _ = strings.Cut(head, "...")
	st.Gone = st.Upstream != "" && track == "gone]"
	for _, part := range strings.Split(strings.TrimSuffix(track, "]"), ", ") {
		if n, ok := strings.CutPrefix(part, "ahead "); ok {
			st.Ahead, _ = strconv.Atoi(n)
		}
		if n, ok := strings.CutPrefix(part, "behind "); ok {
			st.Behind, _ = strconv.Atoi(n)
		}
	}
}

func gitDiff(_ *juju.Call, in GitDiffArgs) (*juju.Result, error) {
	args := []string{"diff", "--unified=" + strconv.Itoa(in.ContextLines)}
	if in.Staged {
		args = append(args, "--cached")
	}
	if in.Revision != "" {
		if strings.HasPrefix(in.Revision, "-") {
			return nil, juju.Errorf(abi.InvalidArgument, "revision %s must name a commit, not an option", abi.Quote(in.Revision))
		}
		args = append(args, in.Revision)
	}
	args = append(append(args, "--"), in.Paths...)
	out, r, err := git(in.Cwd, args...)
	if err != nil {
		if r != nil && strings.Contains(in.Revision, "HEAD") && !hasCommit(in.Cwd, "HEAD") {
			return nil, juju.Errorf(abi.InvalidArgument, "the current branch has no commits yet, so revision %s names no commit; call git_diff without a revision for the unstaged changes, or with staged: true for what the first commit will hold", abi.Quote(in.Revision))
		}
		return nil, err
	}
	if in.Offset > len(out) || (in.Offset > 0 && in.Offset == len(out)) {
		return nil, juju.Errorf(abi.InvalidArgument, "offset %d is past the end of the diff (%d bytes); pass an offset below %d", in.Offset, len(out), len(out))
	}
	d := GitDiff{Bytes: len(out), Offset: in.Offset, Incomplete: strings.Contains(r.Stderr, gitOutputCut)}
	shown := string(out[in.Offset:])
	if len(shown) > maxDiff {
		shown = clip(shown, maxDiff)
		if i := strings.LastIndexByte(shown, '\n'); i >= maxDiff/2 {
			shown = shown[:i+1]
		}
		d.Cut, d.NextOffset = true, in.Offset+len(shown)
	}
	// A file's control characters are escaped (appendClean), which takes
	// more room: the diff shown is cut again to stay within maxDiff.
	clean, used := appendClean(nil, shown, maxDiff)
	if used < len(shown) {
		shown = shown[:used]
		d.Cut, d.NextOffset = true, in.Offset+used
	}
	d.Shown = len(shown)
	var b strings.Builder
	b.Write(clean)
	switch {
	case d.Bytes == 0:
		b.WriteString("no differences\n")
	case d.Cut:
		fmt.Fprintf(&b, "\n[juju cut the diff: bytes %d-%d of %d shown. Call git_diff with the same arguments and offset %d to read on, or narrow it with paths.]\n",
			d.Offset, d.NextOffset, d.Bytes, d.NextOffset)
	case d.Offset > 0:
		fmt.Fprintf(&b, "\n[bytes %d-%d of %d: the end of the diff.]\n", d.Offset, d.Bytes, d.Bytes)
	}
	if d.Incomplete {
		b.WriteString("[git's output passed juju's bound (8 MB), so the diff ends early; narrow it with paths to see the rest.]\n")
	}
	return juju.Text(b.String()).WithStructured(d), nil
}

func gitLog(_ *juju.Call, in GitLogArgs) (*juju.Result, error) {
	args := []string{"log", "--max-count=" + strconv.Itoa(in.Limit), "--format=" + logFormat}
	if in.Offset > 0 {
		args = append(args, "--skip="+strconv.Itoa(in.Offset))
	}
	if in.Revision != "" {
		if strings.HasPrefix(in.Revision, "-") {
			return nil, juju.Errorf(abi.InvalidArgument, "revision %s must name a commit, not an option", abi.Quote(in.Revision))
		}
		args = append(args, in.Revision)
	}
	args = append(args, "--")
	if in.Path != "" {
		args = append(args, in.Path)
	}
	out, _, err := git(in.Cwd, args...)
	if err != nil {
		if strings.Contains(err.Error(), "does not have any commits") {
			return juju.Text("no commits yet\n").WithStructured(GitLog{Commits: []GitCommitInfo{}}), nil
		}
		return nil, err
	}
	l := GitLog{Commits: []GitCommitInfo{}}
	var b strings.Builder
	structured := 0
	for _, c := range parseLog(out) {
		line := fmt.Sprintf("%s %s %s  %s\n", c.Hash[:min(12, len(c.Hash))], juju.LineText(c.Date), juju.LineText(c.Author), juju.LineText(c.Subject))
		n := commitJSONSize(c)
		if b.Len()+len(line) > maxLog || structured+n > maxLog {
			l.Truncated, l.NextOffset = true, in.Offset+len(l.Commits)
			break
		}
		b.WriteString(line)
		structured += n
		l.Commits = append(l.Commits, c)
	}
	switch {
	case l.Truncated:
		fmt.Fprintf(&b, "[Showing %d commits, the most one result holds. Call git_log with the same arguments and offset %d to read on.]\n", len(l.Commits), l.NextOffset)
	case len(l.Commits) == 0 && in.Offset > 0:
		fmt.Fprintf(&b, "no commits after the newest %d%s\n", in.Offset, touching(in.Path))
	case len(l.Commits) == 0 && in.Path == "" && hasCommit(in.Cwd, in.Revision):
		// The log the host runs leaves out the paths juju withholds, so
		// commits that touch only those are not listed: say so, rather
		// than that there are none.
		b.WriteString("no commits shown: the commits here touch only paths juju withholds (secrets, or paths the owner's deny rules exclude)\n")
	case len(l.Commits) == 0:
		fmt.Fprintf(&b, "no commits%s\n", touching(in.Path))
	}
	return juju.Text(b.String()).WithStructured(l), nil
}

// logFormat is one commit of git_log: hash, author, email, date and
// subject, each ended by a NUL, which git never prints inside a field (a
// subject stops at one): a commit's text can hold any other byte, \x1e
// and \x1f included, and must not make a field or a commit of its own.
const logFormat = "%H%x00%an%x00%ae%x00%aI%x00%s%x00"

// logFields is how many fields logFormat gives a commit.
const logFields = 5

// parseLog reads git log --format=logFormat: logFields NUL-ended fields
// per commit, a newline between commits. It stops at a record whose hash
// is not one, which git does not print.
func parseLog(out []byte) []GitCommitInfo {
	f := strings.Split(string(out), "\x00")
	var cs []GitCommitInfo
	for i := 0; i+logFields <= len(f); i += logFields {
		hash := strings.TrimPrefix(f[i], "\n")
		if !isHash(hash) {
			break
		}
		cs = append(cs, GitCommitInfo{Hash: hash, Author: f[i+1], Email: f[i+2], Date: f[i+3], Subject: f[i+4]})
	}
	return cs
}

// isHash reports whether s is a full SHA-1 or SHA-256 object name.
func isHash(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// touching says which path a log was narrowed to, for an empty answer: a
// path no commit touched (or that never existed) is not a history without
// commits.
func touching(path string) string {
	if path == "" {
		return ""
	}
	return fmt.Sprintf(" that touch %s; check the path (git takes it relative to cwd)", abi.Quote(path))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// commitJSONSize is at least the size of c in the structured content: each
// byte of a string counted as the six of \u00XX when JSON may escape it.
func commitJSONSize(c GitCommitInfo) int {
	return len(`{"hash":"","author":"","email":"","date":"","subject":""},`) +
		abi.JSONLen(c.Hash) + abi.JSONLen(c.Author) + abi.JSONLen(c.Email) + abi.JSONLen(c.Date) + abi.JSONLen(c.Subject)
}
