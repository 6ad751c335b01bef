package cargo

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jujutools/juju/plugins/discover/task"
	"github.com/jujutools/juju/plugins/discover/tasktest"
)

func TestWorkspace(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "cargo"))
	res := Discover(fsys, []string{".cargo/config.toml", "Cargo.toml", "crates/cli/Cargo.toml", "crates/core/Cargo.toml"})
	tasktest.Check(t, res, `
ci | cargo | cargo ci | . | .cargo/config.toml:4 | test | alias for cargo test --workspace
xtask | cargo | cargo xtask | . | .cargo/config.toml:3 | run | alias for cargo run --package xtask --
build | cargo | cargo build | . | Cargo.toml:3 | build | every member: crates/cli, crates/core
test | cargo | cargo test | . | Cargo.toml:3 | test | every member: crates/cli, crates/core
clippy | cargo | cargo clippy | . | Cargo.toml:3 | lint | every member: crates/cli, crates/core
build -p cli | cargo | cargo build -p cli | . | crates/cli/Cargo.toml:2 | build | package cli
test -p cli | cargo | cargo test -p cli | . | crates/cli/Cargo.toml:2 | test | package cli
clippy -p cli | cargo | cargo clippy -p cli | . | crates/cli/Cargo.toml:2 | lint | package cli
run -p cli | cargo | cargo run -p cli | . | crates/cli/src/main.rs:1 | run | binary cli of package cli
build -p core-lib | cargo | cargo build -p core-lib | . | crates/core/Cargo.toml:2 | build | package core-lib
test -p core-lib | cargo | cargo test -p core-lib | . | crates/core/Cargo.toml:2 | test | package core-lib
clippy -p core-lib | cargo | cargo clippy -p core-lib | . | crates/core/Cargo.toml:2 | lint | package core-lib
`, "")
}

// Members by glob and by a path dependency inherited from the workspace,
// an excluded crate as a project of its own, a crate cargo refuses;
// binaries (declared, src/main.rs, src/bin), default-run, examples and
// required features.
func TestMembersTargetsAndExclusions(t *testing.T) {
	fsys := task.DirFS(tasktest.Project(t, "cargo-workspace"))
	res := Discover(fsys, []string{"Cargo.toml", "crates/app/Cargo.toml", "crates/experimental/Cargo.toml", "libs/util/Cargo.toml", "stray/Cargo.toml"})
	tasktest.Check(t, res, `
build | cargo | cargo build | . | Cargo.toml:5 | build | every member: crates/app, libs/util
test | cargo | cargo test | . | Cargo.toml:5 | test | every member: crates/app, libs/util
clippy | cargo | cargo clippy | . | Cargo.toml:5 | lint | every member: crates/app, libs/util
build -p app | cargo | cargo build -p app | . | crates/app/Cargo.toml:2 | build | package app
test -p app | cargo | cargo test -p app | . | crates/app/Cargo.toml:2 | test | package app
clippy -p app | cargo | cargo clippy -p app | . | crates/app/Cargo.toml:2 | lint | package app
run -p app --bin admin --features admin | cargo | cargo run -p app --bin admin --features admin | . | crates/app/Cargo.toml:14 | run | binary admin of package app
run -p app | cargo | cargo run -p app | . | crates/app/src/main.rs:1 | run | binary app of package app
run -p app --bin migrate | cargo | cargo run -p app --bin migrate | . | crates/app/src/bin/migrate.rs:1 | run | binary migrate of package app
run -p app --example demo | cargo | cargo run -p app --example demo | . | crates/app/Cargo.toml:19 | run | example demo of package app
run -p app --example tour | cargo | cargo run -p app --example tour | . | crates/app/examples/tour/main.rs:1 | run | example tour of package app
build | cargo | cargo build | crates/experimental | crates/experimental/Cargo.toml:3 | build | package experimental
test | cargo | cargo test | crates/experimental | crates/experimental/Cargo.toml:3 | test | package experimental
clippy | cargo | cargo clippy | crates/experimental | crates/experimental/Cargo.toml:3 | lint | package experimental
run | cargo | cargo run | crates/experimental | crates/experimental/src/main.rs:1 | run | binary experimental of package experimental
build -p util | cargo | cargo build -p util | . | libs/util/Cargo.toml:2 | build | package util
test -p util | cargo | cargo test -p util | . | libs/util/Cargo.toml:2 | test | package util
clippy -p util | cargo | cargo clippy -p util | . | libs/util/Cargo.toml:2 | lint | package util
`, `stray/Cargo.toml: neither lists it in members nor excludes it`)
}

func TestStandaloneAndBroken(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"tool/Cargo.toml":   "[package]\nname = \"tool\"\n\n[[bin]]\nname = \"tool\"\n",
		"broken/Cargo.toml": "[package\n",
	}))
	res := Discover(fsys, []string{"broken/Cargo.toml", "tool/Cargo.toml"})
	tasktest.Check(t, res, `
build | cargo | cargo build | tool | tool/Cargo.toml:2 | build | package tool
test | cargo | cargo test | tool | tool/Cargo.toml:2 | test | package tool
clippy | cargo | cargo clippy | tool | tool/Cargo.toml:2 | lint | package tool
run | cargo | cargo run | tool | tool/Cargo.toml:5 | run | binary tool of package tool
`, `broken/Cargo.toml: is not valid TOML (line 1`)
}

// A root package with members: the plain forms are the root package's,
// the --workspace forms every member's.
func TestRootPackageWorkspace(t *testing.T) {
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"Cargo.toml":     "[package]\nname = \"top\"\n\n[workspace]\nmembers = [\"sub\"]\n",
		"src/lib.rs":     "",
		"sub/Cargo.toml": "[package]\nname = \"sub\"\n",
		"sub/src/lib.rs": "",
	}))
	res := Discover(fsys, []string{"Cargo.toml", "sub/Cargo.toml"})
	tasktest.Check(t, res, `
build --workspace | cargo | cargo build --workspace | . | Cargo.toml:5 | build | every member: ., sub
test --workspace | cargo | cargo test --workspace | . | Cargo.toml:5 | test | every member: ., sub
clippy --workspace | cargo | cargo clippy --workspace | . | Cargo.toml:5 | lint | every member: ., sub
build | cargo | cargo build | . | Cargo.toml:2 | build | package top
test | cargo | cargo test | . | Cargo.toml:2 | test | package top
clippy | cargo | cargo clippy | . | Cargo.toml:2 | lint | package top
build -p sub | cargo | cargo build -p sub | . | sub/Cargo.toml:2 | build | package sub
test -p sub | cargo | cargo test -p sub | . | sub/Cargo.toml:2 | test | package sub
clippy -p sub | cargo | cargo clippy -p sub | . | sub/Cargo.toml:2 | lint | package sub
`, "")
}

// A workspace's member and exclude lists are read to maxMembers entries,
// with a warning: each member pattern is globbed through the host.
func TestManyMembers(t *testing.T) {
	var members []string
	for i := range 2001 {
		members = append(members, fmt.Sprintf("%q", fmt.Sprintf("m%d", i)))
	}
	fsys := task.DirFS(tasktest.Write(t, map[string]string{
		"Cargo.toml":    "[workspace]\nmembers = [" + strings.Join(members, ", ") + "]\n",
		"m0/Cargo.toml": "[package]\nname = \"m0\"\n",
	}))
	res := Discover(fsys, []string{"Cargo.toml", "m0/Cargo.toml"})
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Message, "more than 2000 workspace members") || len(res.Tasks) == 0 {
		t.Errorf("%d tasks, warnings %+v", len(res.Tasks), res.Warnings)
	}
}
