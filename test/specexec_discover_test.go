package test

import "testing"

// pytest takes a pyproject.toml with a [tool.pytest.ini_options] table
// as its configuration even when the table is empty (it marks the root
// and keeps the defaults): project_overview lists its test task then too
// (SPEC §9b), at the table's line.
func TestSpecExecEmptyPytestTableListsPytest(t *testing.T) {
	root := workspace(t, map[string]string{
		"pyproject.toml":  "[project]\nname = \"x\"\n\n[tool.pytest.ini_options]\n",
		"tests/test_x.py": "def test_x():\n    pass\n",
	})
	s := startExec(t, root)
	m := structured(t, s.call("project_overview", map[string]any{}))
	tasks, _ := m["tasks"].([]any)
	for _, v := range tasks {
		task := v.(map[string]any)
		if task["runner"] == "pytest" {
			if task["kind"] != "test" || task["file"] != "pyproject.toml" || task["line"] != float64(4) || task["cwd"] != "." {
				t.Errorf("the pytest task: %v", task)
			}
			return
		}
	}
	t.Errorf("no pytest task among %v", tasks)
}
