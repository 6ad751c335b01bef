package gradle

import (
	"testing"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestMultiProjectWithWrapper(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "gradle"))
	res := Discover(fsys, []string{"app/build.gradle.kts", "build.gradle.kts", "lib/build.gradle.kts", "settings.gradle.kts"})
	tasktest.Check(t, res, `
build | gradle | ./gradlew build | . | settings.gradle.kts:1 | build | assemble and test every project
test | gradle | ./gradlew test | . | settings.gradle.kts:1 | test | run the tests
check | gradle | ./gradlew check | . | settings.gradle.kts:1 | lint | run every check (tests and verification tasks)
clean | gradle | ./gradlew clean | . | settings.gradle.kts:1 | other | delete the build folders
run | gradle | ./gradlew run | . | settings.gradle.kts:1 | run | run the application
:app:build | gradle | ./gradlew :app:build | . | settings.gradle.kts:2 | build | project :app
:app:test | gradle | ./gradlew :app:test | . | settings.gradle.kts:2 | test | project :app
:lib:build | gradle | ./gradlew :lib:build | . | settings.gradle.kts:2 | build | project :lib
:lib:test | gradle | ./gradlew :lib:test | . | settings.gradle.kts:2 | test | project :lib
`, "")
}

func TestSingleProject(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{"build.gradle": "apply plugin: 'java'\n"}))
	res := Discover(fsys, []string{"build.gradle"})
	tasktest.Check(t, res, `
build | gradle | gradle build | . | build.gradle:1 | build | assemble and test every project
test | gradle | gradle test | . | build.gradle:1 | test | run the tests
check | gradle | gradle check | . | build.gradle:1 | lint | run every check (tests and verification tasks)
clean | gradle | gradle clean | . | build.gradle:1 | other | delete the build folders
`, "")
}
