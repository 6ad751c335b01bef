package workload

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// MonorepoFiles is how many files Monorepo writes.
const MonorepoFiles = 5000

// Monorepo writes into dir a monorepo of MonorepoFiles files in the shapes
// the task discoverers follow: a pnpm workspace with a negated glob and
// lifecycle scripts, a go.work of modules with main packages, generate
// directives and tools, a Cargo workspace with binaries and examples, a
// Makefile with includes, a justfile with a module, a Taskfile with an
// include, mise file tasks, a Gradle build and a Maven reactor; the rest
// are source files of those packages. The same dir gets the same tree.
func Monorepo(dir string) error {
	files := map[string]string{}
	modes := map[string]os.FileMode{}
	var sources []string // folders that take filler source files, with their extension
	add := func(name, content string) { files[name] = content }

	// JavaScript: a pnpm workspace.
	add("package.json", `{"name":"mono","private":true,"packageManager":"pnpm@9.1.0","scripts":{"prepare":"husky","build":"turbo run build","test":"turbo run test","lint":"eslint ."}}`+"\n")
	add("pnpm-workspace.yaml", "packages:\n  - \"packages/*\"\n  - \"!**/fixtures/**\"\n")
	add("pnpm-lock.yaml", "lockfileVersion: '9.0'\n")
	for i := range 30 {
		p := fmt.Sprintf("packages/pkg%02d", i)
		add(p+"/package.json", fmt.Sprintf(`{"name":"pkg%02d","scripts":{"prebuild":"rimraf dist","build":"tsc -b","test":"vitest run","lint":"eslint src","dev":"vite"}}`+"\n", i))
		sources = append(sources, p+"/src:.ts")
	}
	add("packages/pkg00/test/fixtures/app/package.json", `{"name":"fixture","scripts":{"build":"never listed"}}`+"\n")

	// Go: a go.work of modules.
	var use []string
	for i := range 10 {
		m := fmt.Sprintf("services/svc%02d", i)
		use = append(use, "./"+m)
		add(m+"/go.mod", fmt.Sprintf("module example.com/svc%02d\n\ngo 1.24\n\ntool example.com/svc%02d/cmd/gen\n", i, i))
		add(m+fmt.Sprintf("/cmd/svc%02d/main.go", i), "package main\n\nfunc main() {}\n")
		add(m+"/cmd/gen/main.go", "package main\n\nfunc main() {}\n")
		add(m+"/internal/model/model.go", "package model\n\n//go:generate go tool gen\n")
		sources = append(sources, m+"/internal/store:.go")
	}
	add("go.work", "go 1.24\n\nuse (\n\t"+strings.Join(use, "\n\t")+"\n)\n")

	// Rust: a Cargo workspace.
	add("crates/Cargo.toml", "[workspace]\nmembers = [\"*\"]\nexclude = [\"scratch\"]\n")
	for i := range 8 {
		c := fmt.Sprintf("crates/c%02d", i)
		add(c+"/Cargo.toml", fmt.Sprintf("[package]\nname = \"c%02d\"\nversion = \"0.1.0\"\nedition = \"2021\"\n", i))
		add(c+"/src/main.rs", "fn main() {}\n")
		add(c+"/examples/demo.rs", "fn main() {}\n")
		sources = append(sources, c+"/src/parts:.rs")
	}

	// make, just, task and mise at the root.
	add("Makefile", "include mk/*.mk\n.PHONY: all\nall: build ## everything\n")
	for _, n := range []string{"build", "test", "release"} {
		add("mk/"+n+".mk", fmt.Sprintf(".PHONY: %s\n## %s: the %s targets\n%s:\n\t@echo %s\n", n, n, n, n, n))
	}
	add("justfile", "mod ops\n\nalias b := build\n\n# build everything\nbuild:\n    make all\n")
	add("ops/mod.just", "# deploy\ndeploy:\n    ./deploy.sh\n")
	add("Taskfile.yml", "version: '3'\nincludes:\n  docs: ./docs\ntasks:\n  ci:\n    desc: What CI runs\n    cmds: [task: docs:build]\n")
	add("docs/Taskfile.yml", "version: '3'\ntasks:\n  build:\n    desc: Build the docs\n    cmds: [mkdocs build]\n")
	add("mise.toml", "[tasks.fmt]\nrun = \"prettier -w .\"\n")
	for _, n := range []string{"db/migrate", "db/seed", "release"} {
		add("mise-tasks/"+n, "#!/bin/sh\n#MISE description=\""+n+"\"\n")
		modes["mise-tasks/"+n] = 0o755
	}

	// JVM: a Gradle build and a Maven reactor.
	add("jvm/settings.gradle.kts", "include(\"app\", \"lib\")\n")
	add("jvm/app/build.gradle.kts", "plugins {\n    application\n}\n\ntasks.register(\"smoke\") {\n    description = \"Smoke test\"\n}\n")
	add("jvm/lib/build.gradle.kts", "plugins {\n    `java-library`\n}\n")
	add("maven/pom.xml", "<project>\n  <modules>\n    <module>core</module>\n  </modules>\n  <profiles>\n    <profile>\n      <id>it</id>\n    </profile>\n  </profiles>\n</project>\n")
	add("maven/core/pom.xml", "<project>\n  <artifactId>core</artifactId>\n</project>\n")
	sources = append(sources, "jvm/app/src/main/java:.java", "maven/core/src/main/java:.java")

	// Filler: source files spread over the packages, up to the count.
	for i := 0; len(files) < MonorepoFiles; i++ {
		folder, ext, _ := strings.Cut(sources[i%len(sources)], ":")
		name := fmt.Sprintf("%s/file%04d%s", folder, i, ext)
		add(name, fmt.Sprintf("// file %d of the benchmark monorepo\n%s", i, strings.Repeat("// some ordinary source text\n", 20)))
	}
	for name, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		mode := modes[name]
		if mode == 0 {
			mode = 0o644
		}
		if err := os.WriteFile(full, []byte(content), mode); err != nil {
			return err
		}
	}
	return nil
}
