package gradle

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestMultiProjectWithWrapper(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "gradle"))
	res := Discover(fsys, []string{"app/build.gradle.kts", "build.gradle.kts", "lib/build.gradle.kts", "settings.gradle.kts"})
	tasktest.Check(t, res, `
build | gradle | ./gradlew build | . | build.gradle.kts:2 | build | assemble and test every project
test | gradle | ./gradlew test | . | build.gradle.kts:2 | test | run the tests of every project
jar | gradle | ./gradlew jar | . | build.gradle.kts:2 | build | build the jar
check | gradle | ./gradlew check | . | build.gradle.kts:2 | lint | run every check (tests and verification tasks)
clean | gradle | ./gradlew clean | . | build.gradle.kts:2 | other | delete the build folders
run | gradle | ./gradlew run | . | build.gradle.kts:2 | run | run the application
:app:build | gradle | ./gradlew :app:build | . | app/build.gradle.kts:1 | build | project :app: assemble and test
:app:test | gradle | ./gradlew :app:test | . | app/build.gradle.kts:1 | test | project :app: run the tests
:app:jar | gradle | ./gradlew :app:jar | . | app/build.gradle.kts:1 | build | project :app: build the jar
:lib:build | gradle | ./gradlew :lib:build | . | lib/build.gradle.kts:1 | build | project :lib: assemble and test
:lib:test | gradle | ./gradlew :lib:test | . | lib/build.gradle.kts:1 | test | project :lib: run the tests
:lib:jar | gradle | ./gradlew :lib:jar | . | lib/build.gradle.kts:1 | build | project :lib: build the jar
tasks | gradle | ./gradlew tasks | . | settings.gradle.kts:1 | other | list the tasks of the build (runs its build scripts)
`, "")
}

func TestPluginsConventionsAndRegisteredTasks(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "gradle-plugins"))
	res := Discover(fsys, []string{"app/build.gradle.kts", "buildSrc/build.gradle.kts", "list/build.gradle.kts", "settings.gradle.kts", "tools/gen/build.gradle", "utilities/build.gradle.kts"})
	tasktest.Check(t, res, `
:app:build | gradle | ./gradlew :app:build | . | buildSrc/src/main/kotlin/buildlogic.java-common-conventions.gradle.kts:2 | build | project :app: assemble and test
:app:test | gradle | ./gradlew :app:test | . | buildSrc/src/main/kotlin/buildlogic.java-common-conventions.gradle.kts:2 | test | project :app: run the tests
:app:jar | gradle | ./gradlew :app:jar | . | buildSrc/src/main/kotlin/buildlogic.java-common-conventions.gradle.kts:2 | build | project :app: build the jar
:app:printVersion | gradle | ./gradlew :app:printVersion | . | buildSrc/src/main/kotlin/buildlogic.java-common-conventions.gradle.kts:5 | other | project :app: Print the project's version
:app:run | gradle | ./gradlew :app:run | . | buildSrc/src/main/kotlin/buildlogic.java-application-conventions.gradle.kts:3 | run | project :app: run the application
:app:bootRun | gradle | ./gradlew :app:bootRun | . | app/build.gradle.kts:3 | run | project :app: run the Spring Boot application
:app:bootJar | gradle | ./gradlew :app:bootJar | . | app/build.gradle.kts:3 | build | project :app: build the executable jar
:app:copyAssets | gradle | ./gradlew :app:copyAssets | . | app/build.gradle.kts:10 | other | project :app: Copy the web assets
:list:build | gradle | ./gradlew :list:build | . | buildSrc/src/main/kotlin/buildlogic.java-common-conventions.gradle.kts:2 | build | project :list: assemble and test
:list:test | gradle | ./gradlew :list:test | . | buildSrc/src/main/kotlin/buildlogic.java-common-conventions.gradle.kts:2 | test | project :list: run the tests
:list:jar | gradle | ./gradlew :list:jar | . | buildSrc/src/main/kotlin/buildlogic.java-common-conventions.gradle.kts:2 | build | project :list: build the jar
:list:printVersion | gradle | ./gradlew :list:printVersion | . | buildSrc/src/main/kotlin/buildlogic.java-common-conventions.gradle.kts:5 | other | project :list: Print the project's version
:utilities:build | gradle | ./gradlew :utilities:build | . | buildSrc/src/main/kotlin/buildlogic.java-common-conventions.gradle.kts:2 | build | project :utilities: assemble and test
:utilities:test | gradle | ./gradlew :utilities:test | . | buildSrc/src/main/kotlin/buildlogic.java-common-conventions.gradle.kts:2 | test | project :utilities: run the tests
:utilities:jar | gradle | ./gradlew :utilities:jar | . | buildSrc/src/main/kotlin/buildlogic.java-common-conventions.gradle.kts:2 | build | project :utilities: build the jar
:utilities:printVersion | gradle | ./gradlew :utilities:printVersion | . | buildSrc/src/main/kotlin/buildlogic.java-common-conventions.gradle.kts:5 | other | project :utilities: Print the project's version
:tools:gen:build | gradle | ./gradlew :tools:gen:build | . | tools/gen/build.gradle:2 | build | project :tools:gen: assemble and test
:tools:gen:test | gradle | ./gradlew :tools:gen:test | . | tools/gen/build.gradle:2 | test | project :tools:gen: run the tests
:tools:gen:jar | gradle | ./gradlew :tools:gen:jar | . | tools/gen/build.gradle:2 | build | project :tools:gen: build the jar
:tools:gen:run | gradle | ./gradlew :tools:gen:run | . | tools/gen/build.gradle:2 | run | project :tools:gen: run the application
:tools:gen:generate | gradle | ./gradlew :tools:gen:generate | . | tools/gen/build.gradle:5 | build | project :tools:gen: Generate the sources
build | gradle | ./gradlew build | . | settings.gradle.kts:1 | build | assemble and test every project
test | gradle | ./gradlew test | . | settings.gradle.kts:1 | test | run the tests of every project
check | gradle | ./gradlew check | . | settings.gradle.kts:1 | lint | run every check (tests and verification tasks)
clean | gradle | ./gradlew clean | . | settings.gradle.kts:1 | other | delete the build folders
run | gradle | ./gradlew run | . | settings.gradle.kts:1 | run | run the application
tasks | gradle | ./gradlew tasks | . | settings.gradle.kts:1 | other | list the tasks of the build (runs its build scripts)
`, "")
}

func TestSingleProject(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{"build.gradle": "apply plugin: 'java'\n"}))
	res := Discover(fsys, []string{"build.gradle"})
	tasktest.Check(t, res, `
build | gradle | gradle build | . | build.gradle:1 | build | assemble and test
test | gradle | gradle test | . | build.gradle:1 | test | run the tests
jar | gradle | gradle jar | . | build.gradle:1 | build | build the jar
check | gradle | gradle check | . | build.gradle:1 | lint | run every check
clean | gradle | gradle clean | . | build.gradle:1 | other | delete the build folder
tasks | gradle | gradle tasks | . | build.gradle:1 | other | list the tasks of the build (runs its build scripts)
`, "")
}

// A subprojects {} block applies its plugins to every subproject; a
// plugin declared with apply false is not applied.
func TestSubprojectsBlockAndApplyFalse(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"settings.gradle": "include 'a'\n",
		"build.gradle":    "plugins {\n    id 'org.springframework.boot' version '3.3.0' apply false\n}\nsubprojects {\n    apply plugin: 'java'\n}\n",
		"a/build.gradle":  "",
	}))
	res := Discover(fsys, []string{"a/build.gradle", "build.gradle", "settings.gradle"})
	tasktest.Check(t, res, `
:a:build | gradle | gradle :a:build | . | build.gradle:5 | build | project :a: assemble and test
:a:test | gradle | gradle :a:test | . | build.gradle:5 | test | project :a: run the tests
:a:jar | gradle | gradle :a:jar | . | build.gradle:5 | build | project :a: build the jar
build | gradle | gradle build | . | settings.gradle:1 | build | assemble and test every project
test | gradle | gradle test | . | settings.gradle:1 | test | run the tests of every project
check | gradle | gradle check | . | settings.gradle:1 | lint | run every check (tests and verification tasks)
clean | gradle | gradle clean | . | settings.gradle:1 | other | delete the build folders
tasks | gradle | gradle tasks | . | settings.gradle:1 | other | list the tasks of the build (runs its build scripts)
`, "")
}

// A project path comes from the settings file: it is one quoted word of
// the command (ws/inj of the review).
func TestProjectPathsAreQuoted(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"settings.gradle":  "rootProject.name='r'\ninclude 'app;touch pwned;'\nproject(':app;touch pwned;').projectDir = file('app')\n",
		"app/build.gradle": "plugins { id 'java' }\n",
	}))
	res := Discover(fsys, []string{"settings.gradle", "app/build.gradle"})
	tasktest.Check(t, res, `
:app;touch pwned;:build | gradle | gradle ':app;touch pwned;:build' | . | app/build.gradle:1 | build | project :app;touch pwned;: assemble and test
:app;touch pwned;:test | gradle | gradle ':app;touch pwned;:test' | . | app/build.gradle:1 | test | project :app;touch pwned;: run the tests
:app;touch pwned;:jar | gradle | gradle ':app;touch pwned;:jar' | . | app/build.gradle:1 | build | project :app;touch pwned;: build the jar
build | gradle | gradle build | . | settings.gradle:1 | build | assemble and test every project
test | gradle | gradle test | . | settings.gradle:1 | test | run the tests of every project
check | gradle | gradle check | . | settings.gradle:1 | lint | run every check (tests and verification tasks)
clean | gradle | gradle clean | . | settings.gradle:1 | other | delete the build folders
tasks | gradle | gradle tasks | . | settings.gradle:1 | other | list the tasks of the build (runs its build scripts)
`, "")
}

// Unclosed "include(", "plugins {" and "tasks.register<" lines are read in time linear in
// the file (each was read to the end of the file: quadratic), and builds
// of too many projects or unknown plugins are cut at their bounds with a
// warning.
func TestBombs(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"settings.gradle":  strings.Repeat("include(\n", 200_000) + "include 'app'\n",
		"app/build.gradle": "plugins { id 'java' }\n" + strings.Repeat("plugins {\n", 200_000) + "}\n" + strings.Repeat("tasks.register<\ntask a\n", 100_000),
	}))
	start := time.Now()
	res := Discover(fsys, []string{"settings.gradle", "app/build.gradle"})
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %v", d)
	}
	tasktest.Check(t, res, `
:app:build | gradle | gradle :app:build | . | app/build.gradle:1 | build | project :app: assemble and test
:app:test | gradle | gradle :app:test | . | app/build.gradle:1 | test | project :app: run the tests
:app:jar | gradle | gradle :app:jar | . | app/build.gradle:1 | build | project :app: build the jar
:app:a | gradle | gradle :app:a | . | app/build.gradle:200004 | other | project :app:
build | gradle | gradle build | . | settings.gradle:1 | build | assemble and test every project
test | gradle | gradle test | . | settings.gradle:1 | test | run the tests of every project
check | gradle | gradle check | . | settings.gradle:1 | lint | run every check (tests and verification tasks)
clean | gradle | gradle clean | . | settings.gradle:1 | other | delete the build folders
tasks | gradle | gradle tasks | . | settings.gradle:1 | other | list the tasks of the build (runs its build scripts)
`, "")

	var inc, ids strings.Builder
	for i := range maxProjects + 1 {
		fmt.Fprintf(&inc, "include 'p%d'\n", i)
	}
	for i := range maxConventionIDs + 1 {
		fmt.Fprintf(&ids, "  id 'x%d'\n", i)
	}
	fsys = task.DirFS(tasktest.Write(t, map[string]string{
		"settings.gradle": inc.String(),
		"build.gradle":    "plugins {\n" + ids.String() + "}\n",
	}))
	res = Discover(fsys, []string{"settings.gradle", "build.gradle"})
	tasktest.Check(t, res, `tasks | gradle | gradle tasks | . | settings.gradle:1 | other | list the tasks of the build (runs its build scripts)`, `
settings.gradle: line 5001: the build includes more than 5000 projects; :p5000
settings.gradle: its scripts apply more than 500 plugins
`)
}
