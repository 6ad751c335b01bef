package overview

import (
	"strconv"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// Git is the git section of the overview.
type Git struct {
	Available  bool   `json:"available" desc:"Whether git could be asked; when false, note says why."`
	Repository bool   `json:"repository" desc:"Whether the folder is inside a git work tree."`
	Branch     string `json:"branch,omitempty" desc:"The current branch; empty on a detached HEAD."`
	Upstream   string `json:"upstream,omitempty" desc:"The branch's upstream, if any."`
	Gone       bool   `json:"upstreamGone,omitempty" desc:"The upstream no longer exists (deleted on the remote and pruned): ahead and behind say nothing."`
	Ahead      int    `json:"ahead,omitempty"`
	Behind     int    `json:"behind,omitempty"`
	Head       string `json:"head,omitempty" desc:"The short hash and subject of the last commit."`
	Staged     int    `json:"staged"`
	Modified   int    `json:"modified"`
	Untracked  int    `json:"untracked"`
	Conflicted int    `json:"conflicted"`
	Clean      bool   `json:"clean" desc:"No staged, modified, untracked or conflicted files."`
	Note       string `json:"note,omitempty"`
}

// gitState asks git (host function juju_git) for the branch and the state
// of the work tree; without it, it says why.
func gitState(dir string) Git {
	res, out, err := juju.Git(abi.GitRequest{Args: []string{"status", "--porcelain=v1", "--branch", "--untracked-files=normal"}, Cwd: dir})
	if err != nil {
		msg := err.Error()
		if e, ok := juju.AsError(err); ok {
			msg = e.Message
			if e.Code == abi.NotFound && strings.Contains(msg, "bare repository") {
				return Git{Available: true, Note: msg}
			}
		}
		return Git{Note: "git is not available: " + msg}
	}
	if res.ExitCode != 0 {
		if strings.Contains(res.Stderr, "not a git repository") {
			return Git{Available: true, Note: "the folder is not inside a git repository"}
		}
		return Git{Available: true, Note: "git status failed: " + firstLine(res.Stderr)}
	}
	g := parseStatus(string(out))
	g.Available, g.Repository = true, true
	if res, out, err := juju.Git(abi.GitRequest{Args: []string{"log", "-1", "--format=%h %s"}, Cwd: dir}); err == nil && res.ExitCode == 0 {
		g.Head = strings.TrimSpace(string(out))
	}
	return g
}

// parseStatus reads `git status --porcelain=v1 --branch`.
func parseStatus(out string) Git {
	var g Git
	for line := range strings.SplitSeq(out, "\n") {
		if len(line) < 3 {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "## "); ok {
			branchLine(&g, rest)
			continue
		}
		x, y := line[0], line[1]
		switch {
		case x == '?' && y == '?':
			g.Untracked++
		case x == 'U' || y == 'U' || (x == 'A' && y == 'A') || (x == 'D' && y == 'D'):
			g.Conflicted++
		default:
			if x != ' ' {
				g.Staged++
			}
			if y != ' ' {
				g.Modified++
			}
		}
	}
	g.Clean = g.Staged+g.Modified+g.Untracked+g.Conflicted == 0
	return g
}

// branchLine reads "main...origin/main [ahead 1, behind 2]",
// "main...origin/main [gone]", "No commits yet on main" or "HEAD (no
// branch)".
func branchLine(g *Git, s string) {
	if b, ok := strings.CutPrefix(s, "No commits yet on "); ok {
		g.Branch = b
		return
	}
	if strings.HasPrefix(s, "HEAD (no branch)") {
		return
	}
	s, track, _ := strings.Cut(s, " [")
	g.Branch, g.Upstream, _ = strings.Cut(s, "...")
	g.Gone = g.Upstream != "" && track == "gone]"
	for part := range strings.SplitSeq(strings.TrimSuffix(track, "]"), ", ") {
		k, v, _ := strings.Cut(part, " ")
		n, _ := strconv.Atoi(v)
		switch k {
		case "ahead":
			g.Ahead = n
		case "behind":
			g.Behind = n
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
