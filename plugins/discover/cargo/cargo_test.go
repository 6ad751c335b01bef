package cargo

import (
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
build --workspace | cargo | cargo build --workspace | . | Cargo.toml:3 | build | every member: crates/*
test --workspace | cargo | cargo test --workspace | . | Cargo.toml:3 | test | every member: crates/*
clippy --workspace | cargo | cargo clippy --workspace | . | Cargo.toml:3 | lint | every member: crates/*
build -p cli | cargo | cargo build -p cli | . | crates/cli/Cargo.toml:2 | build | package cli
test -p cli | cargo | cargo test -p cli | . | crates/cli/Cargo.toml:2 | test | package cli
clippy -p cli | cargo | cargo clippy -p cli | . | crates/cli/Cargo.toml:2 | lint | package cli
run -p cli | cargo | cargo run -p cli | . | crates/cli/Cargo.toml:2 | run | package cli
build -p core-lib | cargo | cargo build -p core-lib | . | crates/core/Cargo.toml:2 | build | package core-lib
test -p core-lib | cargo | cargo test -p core-lib | . | crates/core/Cargo.toml:2 | test | package core-lib
clippy -p core-lib | cargo | cargo clippy -p core-lib | . | crates/core/Cargo.toml:2 | lint | package core-lib
`, "")
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
run | cargo | cargo run | tool | tool/Cargo.toml:2 | run | package tool
`, `broken/Cargo.toml: is not valid TOML (line 1`)
}
