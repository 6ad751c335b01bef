package main

import (
	"reflect"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

func TestParse(t *testing.T) {
	content := "\uFEFF# services\nweb: bundle exec puma -C config/puma.rb\n\nworker:   bundle exec sidekiq\r\nnot an entry\nrelease: rails db:migrate\nweb: bin/web\nempty:\n"
	tasks, warnings := Parse("app/Procfile.dev", content, "foreman")
	want := []abi.Task{
		{Name: "worker", Runner: "foreman", Command: "foreman start -f Procfile.dev worker", Cwd: "app", File: "app/Procfile.dev", Line: 4, Description: "bundle exec sidekiq", Kind: abi.KindRun},
		{Name: "release", Runner: "foreman", Command: "foreman start -f Procfile.dev release", Cwd: "app", File: "app/Procfile.dev", Line: 6, Description: "rails db:migrate", Kind: abi.KindBuild},
		{Name: "web", Runner: "foreman", Command: "foreman start -f Procfile.dev web", Cwd: "app", File: "app/Procfile.dev", Line: 7, Description: "bin/web", Kind: abi.KindRun},
	}
	if !reflect.DeepEqual(tasks, want) {
		t.Errorf("tasks:\n got %+v\nwant %+v", tasks, want)
	}
	wantW := []string{
		`line 5 is not a "name: command" entry`,
		`line 7: process "web" was already defined on line 2; foreman uses the last one`,
		`line 8 is not a "name: command" entry`,
	}
	if len(warnings) != len(wantW) {
		t.Fatalf("warnings: %+v", warnings)
	}
	for i, w := range warnings {
		if w.Message != wantW[i] || w.File != "app/Procfile.dev" {
			t.Errorf("warning %d: %+v, want %q", i, w, wantW[i])
		}
	}
}

func TestParseRootProcfile(t *testing.T) {
	tasks, _ := Parse("Procfile", "test: pytest -q\n", Runner([]string{"Procfile", "pyproject.toml"}))
	if len(tasks) != 1 || tasks[0].Command != "honcho start test" || tasks[0].Cwd != "." || tasks[0].Kind != abi.KindTest {
		t.Errorf("tasks = %+v", tasks)
	}
}
