package journal

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/internal/journal/text"
	"github.com/jujutools/juju/sdk/abi"
)

// withhold takes out of ci, the history of r, what it holds of a path the
// policy now withholds: a secret or denied path (the owner added a glob
// since, or a root is not served now) was written when it was not one,
// and the record keeps its lines in the diff and its hashes, which
// change_history served to any client after read_file refused the file.
// The path's name and action stay; its hashes, its line counts and its
// part of the diff go, a line saying so in its place. A record made
// before each path's part was marked (DiffSplit) loses its whole diff.
func (j *Journal) withhold(r *record, ci *abi.ChangeInfo) {
	roots := j.pol.Roots()
	var codes []abi.Code
	any := false
	for i, f := range r.Files {
		var code abi.Code
		if f.Root >= len(roots) {
			code = abi.PathDenied
		} else if e := j.pol.Check(roots[f.Root], f.Rel); e != nil {
			code = e.Code
		}
		codes = append(codes, code)
		if code == "" {
			continue
		}
		any = true
		fc := &ci.Files[i]
		fc.SHA256Before, fc.SHA256After, fc.Added, fc.Removed = "", "", 0, 0
	}
	if !any || ci.Diff == "" {
		return
	}
	if !r.DiffSplit || len(r.Files) == 0 {
		ci.Diff = "[the diff is withheld: the change touched a path that is now a secret or denied by the owner's rules]\n"
		return
	}
	var b strings.Builder
	for i, f := range r.Files {
		start, end := f.DiffAt, len(r.Diff)
		if i+1 < len(r.Files) {
			end = r.Files[i+1].DiffAt
		}
		if start < 0 || end > len(r.Diff) || start > end {
			ci.Diff = "[the diff is withheld: the change touched a path that is now a secret or denied by the owner's rules]\n"
			return
		}
		switch {
		case codes[i] == "":
			b.WriteString(r.Diff[start:end])
		case start < end:
			fmt.Fprintf(&b, "[the diff of %s is withheld: it is now %s]\n", text.QuotePath(f.Path), withheldWhy(codes[i]))
		}
	}
	ci.Diff = b.String()
}

func withheldWhy(code abi.Code) string {
	if code == abi.SecretDenied {
		return "a secret"
	}
	return "denied by the owner's rules"
}
