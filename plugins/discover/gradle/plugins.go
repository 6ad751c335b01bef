package gradle

import (
	"path"
	"strings"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/sdk/abi"
)

// pluginTask is a task a plugin brings.
type pluginTask struct {
	name, kind, desc string
	// aggregateOnly: listed for the root project, and at the root for
	// every project that has it, but not as :sub:name.
	aggregateOnly bool
}

var (
	jvmTasks = []pluginTask{
		{"build", abi.KindBuild, "assemble and test", false},
		{"test", abi.KindTest, "run the tests", false},
		{"jar", abi.KindBuild, "build the jar", false},
		{"check", abi.KindLint, "run every check", true},
		{"clean", abi.KindOther, "delete the build folder", true},
	}
	androidTasks = []pluginTask{
		{"assembleDebug", abi.KindBuild, "build the debug variant", false},
		{"test", abi.KindTest, "run the unit tests", false},
		{"lint", abi.KindLint, "run Android lint", false},
		{"build", abi.KindBuild, "assemble and test every variant", true},
		{"check", abi.KindLint, "run every check", true},
		{"clean", abi.KindOther, "delete the build folder", true},
	}
)

// pluginTasks are the tasks of the plugins juju knows, by plugin id ("java"
// and "org.gradle.java" alike). Plugins that apply others list theirs too.
var pluginTasks = map[string][]pluginTask{
	"base":                               {{"build", abi.KindBuild, "assemble and check", false}},
	"java":                               jvmTasks,
	"java-library":                       jvmTasks,
	"java-platform":                      nil,
	"groovy":                             jvmTasks,
	"scala":                              jvmTasks,
	"java-gradle-plugin":                 jvmTasks,
	"org.jetbrains.kotlin.jvm":           jvmTasks,
	"application":                        append(append([]pluginTask(nil), jvmTasks...), pluginTask{"run", abi.KindRun, "run the application", false}),
	"org.springframework.boot":           {{"bootRun", abi.KindRun, "run the Spring Boot application", false}, {"bootJar", abi.KindBuild, "build the executable jar", false}},
	"io.quarkus":                         {{"quarkusDev", abi.KindRun, "run Quarkus in dev mode", false}, {"quarkusBuild", abi.KindBuild, "build the Quarkus application", false}},
	"com.android.application":            append(append([]pluginTask(nil), androidTasks...), pluginTask{"installDebug", abi.KindRun, "install the debug variant on a device", false}),
	"com.android.library":                androidTasks,
	"org.jetbrains.kotlin.multiplatform": {{"build", abi.KindBuild, "assemble and test every target", false}, {"allTests", abi.KindTest, "run the tests of every target", false}},
	"com.diffplug.spotless":              {{"spotlessCheck", abi.KindLint, "check the formatting", false}, {"spotlessApply", abi.KindLint, "format the sources", false}},
	"jacoco":                             {{"jacocoTestReport", abi.KindTest, "write the coverage report", false}},
	"maven-publish":                      {{"publishToMavenLocal", abi.KindBuild, "publish to the local Maven repository", false}},
}

// aggregated are the tasks listed once at the root of a build, run by
// name in every project that has them, when some project has them.
var aggregated = []pluginTask{
	{"build", abi.KindBuild, "assemble and test every project", false},
	{"test", abi.KindTest, "run the tests of every project", false},
	{"check", abi.KindLint, "run every check (tests and verification tasks)", false},
	{"clean", abi.KindOther, "delete the build folders", false},
	{"run", abi.KindRun, "run the application", false},
}

// known says juju knows which tasks the plugin id brings.
func known(id string) ([]pluginTask, bool) {
	ts, ok := pluginTasks[strings.TrimPrefix(id, "org.gradle.")]
	return ts, ok
}

// conventionDirs are where a build keeps its convention plugins, below
// the build's folder or an included build's: precompiled script plugins
// named by their id.
var conventionDirs = []string{"src/main/kotlin", "src/main/groovy"}

// conventionScript finds the script of the convention plugin id in the
// folders of buildSrc and the included builds, or "".
func (d *discoverer) conventionScript(b *build, id string) string {
	for _, base := range b.logic {
		for _, cd := range conventionDirs {
			for _, name := range []string{id + ".gradle.kts", id + ".gradle"} {
				if p := path.Join(base, cd, name); d.fsys.Exists(p) {
					return p
				}
			}
		}
		// build-logic/convention/src/main/kotlin/…: one level of projects.
		for _, e := range d.fsys.List(base) {
			if !strings.HasSuffix(e, "/") {
				continue
			}
			for _, cd := range conventionDirs {
				for _, name := range []string{id + ".gradle.kts", id + ".gradle"} {
					if p := path.Join(base, e, cd, name); d.fsys.Exists(p) {
						return p
					}
				}
			}
		}
	}
	return ""
}

// catalog reads the [plugins] of gradle/libs.versions.toml: alias (its
// separators made dots, as Gradle's accessors have them) → plugin id.
func (d *discoverer) catalog(dir string) map[string]string {
	out := map[string]string{}
	data, err := d.fsys.ReadFile(path.Join(dir, "gradle/libs.versions.toml"))
	if err != nil {
		return out
	}
	var v struct {
		Plugins map[string]any `toml:"plugins"`
	}
	if task.UnmarshalTOML(data, &v) != nil {
		return out
	}
	for alias, spec := range v.Plugins {
		key := strings.NewReplacer("-", ".", "_", ".").Replace(alias)
		switch s := spec.(type) {
		case string:
			out[key], _, _ = strings.Cut(s, ":")
		case map[string]any:
			out[key], _ = s["id"].(string)
		}
	}
	return out
}
