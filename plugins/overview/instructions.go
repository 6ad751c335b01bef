package overview

import (
	"path"
	"sort"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// instructionFiles are the files projects keep their conventions in.
var instructionFiles = []string{
	"AGENTS.md", "AGENT.md", "CLAUDE.md", "CLAUDE.local.md", "GEMINI.md", "CONVENTIONS.md",
	".cursorrules", ".windsurfrules", ".clinerules", ".github/copilot-instructions.md",
}

// instructionDirs are folders whose files with the given suffix are
// instructions, at any depth: read_instructions' (plugins/search).
var instructionDirs = []struct{ dir, suffix string }{
	{".cursor/rules", ".mdc"}, {".cursor/rules", ".md"}, {".kiro/steering", ".md"},
	{".github/instructions", ".instructions.md"}, {".windsurf/rules", ".md"}, {".clinerules", ".md"},
}

// instructions lists the instruction files under dir (paths only).
func instructions(dir string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, name := range instructionFiles {
		p := path.Join(dir, name)
		if st, err := juju.Stat(abi.StatRequest{Path: p}); err == nil && st.Type == abi.TypeFile {
			out = append(out, p)
			seen[p] = true
		}
	}
	for _, d := range instructionDirs {
		p := path.Join(dir, d.dir)
		if st, err := juju.Stat(abi.StatRequest{Path: p}); err != nil || st.Type != abi.TypeDir {
			continue
		}
		res, err := juju.Glob(abi.GlobRequest{Path: p, Pattern: "**/*" + d.suffix, IncludeIgnored: true, Limit: 100})
		if err != nil {
			continue
		}
		for _, e := range res.Entries {
			if !seen[e.Path] {
				out = append(out, e.Path)
				seen[e.Path] = true
			}
		}
	}
	sort.Strings(out)
	return out
}
