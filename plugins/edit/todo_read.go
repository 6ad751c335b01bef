package edit

import (
	"encoding/json"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// TodoReadArgs are the arguments of todo_read (none).
type TodoReadArgs struct{}

func init() {
	juju.Tool("todo_read", juju.ReadTool("Read todo list",
		"Returns this workspace's todo list as todo_write left it (empty when none was written).",
		TodoOutput{}), todoRead)
}

func todoRead(_ *juju.Call, _ TodoReadArgs) (*juju.Result, error) {
	b, found, err := juju.StateGet(todoKey)
	if err != nil {
		return nil, err
	}
	out := TodoOutput{Todos: []Todo{}}
	if found {
		if err := json.Unmarshal(b, &out.Todos); err != nil {
			return nil, juju.Errorf(abi.Internal, "the stored todo list is damaged; write a new one with todo_write")
		}
	}
	return juju.Text(renderTodos(out.Todos)).WithStructured(out), nil
}
