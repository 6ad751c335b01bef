package maven

import (
	"testing"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestModulesWithWrapperAndBrokenModule(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "maven"))
	res := Discover(fsys, []string{"core/pom.xml", "pom.xml", "web/pom.xml"})
	tasktest.Check(t, res, `
compile | maven | ./mvnw compile | . | pom.xml:2 | build | compile the sources
test | maven | ./mvnw test | . | pom.xml:2 | test | run the unit tests
package | maven | ./mvnw package | . | pom.xml:2 | build | build the jar or war
verify | maven | ./mvnw verify | . | pom.xml:2 | test | run the integration tests and checks
clean | maven | ./mvnw clean | . | pom.xml:2 | other | delete the build output
test -pl core | maven | ./mvnw -pl core test | . | pom.xml:8 | test | module core
package -pl core | maven | ./mvnw -pl core package | . | pom.xml:8 | build | module core
test -pl web | maven | ./mvnw -pl web test | . | pom.xml:9 | test | module web
package -pl web | maven | ./mvnw -pl web package | . | pom.xml:9 | build | module web
`, `web/pom.xml: is not valid XML`)
}
