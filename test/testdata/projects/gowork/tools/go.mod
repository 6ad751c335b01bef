// The tools module.
module example.com/tools

go 1.24

tool example.com/tools/cmd/enumgen

tool (
	example.com/tools/cmd/lint/v2 // the linter, major version 2
)
