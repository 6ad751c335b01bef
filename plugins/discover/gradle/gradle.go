// Package gradle finds the tasks of Gradle builds without running Gradle
// (`gradle tasks` executes the build scripts): the standard tasks of the
// root project (build, test, check, clean, and run with the application
// plugin), and build and test of each project that settings.gradle(.kts)
// includes. The wrapper (./gradlew) is used when present.
package gradle

import (
	"path"
	"regexp"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// Files are the files this discoverer reads.
var Files = []string{"settings.gradle", "settings.gradle.kts", "build.gradle", "build.gradle.kts"}

var (
	includeRE = regexp.MustCompile(`(?m)^\s*include\b(.*)$`)
	quotedRE  = regexp.MustCompile(`["']([^"']+)["']`)
)

// Discover lists the tasks of the Gradle builds in files.
func Discover(fsys task.FS, files []string) *task.Result {
	res := task.NewResult()
	settings := map[string]string{} // folder → settings file
	for _, f := range files {
		if strings.HasPrefix(path.Base(f), "settings.gradle") {
			settings[task.Dir(f)] = f
		}
	}
	under := func(dir string) bool {
		for cur := dir; ; cur = path.Dir(cur) {
			if _, ok := settings[cur]; ok {
				return true
			}
			if cur == "." {
				return false
			}
		}
	}
	done := map[string]bool{}
	for _, f := range files {
		dir := task.Dir(f)
		isSettings := strings.HasPrefix(path.Base(f), "settings.gradle")
		if done[dir] || (!isSettings && under(dir)) {
			continue
		}
		done[dir] = true
		data, ok := res.Read(fsys, f)
		if !ok {
			continue
		}
		cmd := "gradle"
		if fsys.Exists(path.Join(dir, "gradlew")) {
			cmd = "./gradlew"
		}
		build := string(data)
		if isSettings {
			for _, name := range []string{"build.gradle.kts", "build.gradle"} {
				if b, err := fsys.ReadFile(path.Join(dir, name)); err == nil {
					build = string(b)
					break
				}
			}
		}
		root := []struct{ name, kind, desc string }{
			{"build", abi.KindBuild, "assemble and test every project"},
			{"test", abi.KindTest, "run the tests"},
			{"check", abi.KindLint, "run every check (tests and verification tasks)"},
			{"clean", abi.KindOther, "delete the build folders"},
		}
		if strings.Contains(build, "application") {
			root = append(root, struct{ name, kind, desc string }{"run", abi.KindRun, "run the application"})
		}
		for _, t := range root {
			res.Add(abi.Task{Name: t.name, Runner: "gradle", Command: cmd + " " + t.name, Cwd: dir, File: f, Line: 1, Kind: t.kind, Description: t.desc})
		}
		if !isSettings {
			continue
		}
		for _, m := range includeRE.FindAllSubmatchIndex(data, -1) {
			line := task.LineAt(data, m[0])
			for _, q := range quotedRE.FindAllStringSubmatch(string(data[m[2]:m[3]]), -1) {
				p := ":" + strings.TrimPrefix(q[1], ":")
				for _, c := range []string{"build", "test"} {
					res.Add(abi.Task{Name: p + ":" + c, Runner: "gradle", Command: cmd + " " + p + ":" + c, Cwd: dir, File: f, Line: line, Kind: task.Kind(c), Description: "project " + p})
				}
			}
		}
	}
	return res
}
