package maven

import (
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestModulesWithWrapperAndBrokenModule(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "maven"))
	res := Discover(fsys, []string{"core/pom.xml", "pom.xml", "web/pom.xml"})
	tasktest.Check(t, res, `
clean | maven | ./mvnw clean | . | pom.xml:2 | other | delete the build output
compile | maven | ./mvnw compile | . | pom.xml:2 | build | compile the sources
test | maven | ./mvnw test | . | pom.xml:2 | test | run the unit tests
package | maven | ./mvnw package | . | pom.xml:2 | build | build the jar or war
verify | maven | ./mvnw verify | . | pom.xml:2 | test | run the integration tests and checks
install | maven | ./mvnw install | . | pom.xml:2 | build | install the artifacts in the local repository
test -pl core | maven | ./mvnw -pl core test | . | pom.xml:8 | test | module core
package -pl core | maven | ./mvnw -pl core package | . | pom.xml:8 | build | module core
test -pl web | maven | ./mvnw -pl web test | . | pom.xml:9 | test | module web
package -pl web | maven | ./mvnw -pl web package | . | pom.xml:9 | build | module web
`, `web/pom.xml: is not valid XML`)
}

// Modules of modules by path, profiles of every pom of the reactor, and a
// module only a profile adds (no -pl task: Maven would not find it).
func TestReactorAndProfiles(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "maven-reactor"))
	res := Discover(fsys, []string{"app/pom.xml", "bench/pom.xml", "pom.xml", "services/api/pom.xml", "services/impl/pom.xml", "services/pom.xml"})
	tasktest.Check(t, res, `
clean | maven | mvn clean | . | pom.xml:4 | other | delete the build output
compile | maven | mvn compile | . | pom.xml:4 | build | compile the sources
test | maven | mvn test | . | pom.xml:4 | test | run the unit tests
package | maven | mvn package | . | pom.xml:4 | build | build the jar or war
verify | maven | mvn verify | . | pom.xml:4 | test | run the integration tests and checks
install | maven | mvn install | . | pom.xml:4 | build | install the artifacts in the local repository
test -pl app | maven | mvn -pl app test | . | pom.xml:11 | test | module app
package -pl app | maven | mvn -pl app package | . | pom.xml:11 | build | module app
test -pl services | maven | mvn -pl services test | . | pom.xml:12 | test | module services
package -pl services | maven | mvn -pl services package | . | pom.xml:12 | build | module services
test -pl services/api | maven | mvn -pl services/api test | . | services/pom.xml:11 | test | module services/api
package -pl services/api | maven | mvn -pl services/api package | . | services/pom.xml:11 | build | module services/api
test -pl services/impl | maven | mvn -pl services/impl test | . | services/pom.xml:12 | test | module services/impl
package -pl services/impl | maven | mvn -pl services/impl package | . | services/pom.xml:12 | build | module services/impl
verify -P integration-tests | maven | mvn -P integration-tests verify | . | pom.xml:16 | test | verify with the profile integration-tests
verify -P bench | maven | mvn -P bench verify | . | pom.xml:19 | test | verify with the profile bench
verify -P native | maven | mvn -P native verify | . | app/pom.xml:11 | test | verify with the profile native
`, "")
}

// A pom of 500,000 nested elements is refused at maxDepth with a warning,
// quickly (the path of every element was rebuilt from all its parents:
// the review's pom ran the discoverer past its time), and a pom nested
// deep within the bound is still read.
func TestDeepPom(t *testing.T) {
	const n = 500_000
	deep := "<project>" + strings.Repeat("<a>", n) + strings.Repeat("</a>", n) + "</project>\n"
	near := "<project>\n<modules><module>m</module></modules>\n" + strings.Repeat("<a>", maxDepth-1) + strings.Repeat("</a>", maxDepth-1) + "</project>\n"
	fsys := task.DirFS(tasktest.Write(t, map[string]string{"deep/pom.xml": deep, "pom.xml": near, "m/pom.xml": "<project/>\n"}))
	start := time.Now()
	res := Discover(fsys, []string{"deep/pom.xml", "pom.xml", "m/pom.xml"})
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %v", d)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "nest deeper than 256") {
		t.Errorf("warnings %+v", res.Warnings)
	}
	var names []string
	for _, tk := range res.Tasks {
		names = append(names, tk.Name)
	}
	if got := strings.Join(names, ","); got != "clean,compile,test,package,verify,install,test -pl m,package -pl m" {
		t.Errorf("tasks %s", got)
	}
}
