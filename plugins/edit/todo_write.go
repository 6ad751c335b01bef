package edit

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// todoKey is the state key of the list.
const todoKey = "todos"

// Todo is one item of the list.
type Todo struct {
	ID       string `json:"id,omitempty" desc:"A short id of your choosing (default: its position)."`
	Content  string `json:"content" jsonschema:"required" min:"1" desc:"What to do, in one line."`
	Status   string `json:"status" jsonschema:"required" enum:"pending,in_progress,completed" desc:"Where it stands."`
	Priority string `json:"priority,omitempty" enum:"high,medium,low" desc:"How much it matters."`
	// ActiveForm is Claude Code's: its todo items carry one, and a model
	// used to them sends it.
	ActiveForm string `json:"activeForm,omitempty" desc:"The item as it is being done (\"Running the tests\"), shown while it is in_progress."`
}

// TodoArg is one item as todo_write takes it: a Todo whose id and
// content are bounded. The bounds stay out of the output schema, so a
// list kept before them is still read back as valid structured content.
type TodoArg struct {
	ID         string `json:"id,omitempty" max:"100" desc:"A short id of your choosing (default: its position)."`
	Content    string `json:"content" jsonschema:"required" min:"1" max:"1000" desc:"What to do, in one line."`
	Status     string `json:"status" jsonschema:"required" enum:"pending,in_progress,completed" desc:"Where it stands."`
	Priority   string `json:"priority,omitempty" enum:"high,medium,low" desc:"How much it matters."`
	ActiveForm string `json:"activeForm,omitempty" max:"1000" desc:"The item as it is being done (\"Running the tests\"), shown while it is in_progress."`
}

// TodoWriteArgs are the arguments of todo_write.
type TodoWriteArgs struct {
	Todos []TodoArg `json:"todos" jsonschema:"required" max:"200" desc:"The whole list, replacing the one kept before."`
}

// TodoOutput is the structured content of todo_write and todo_read.
type TodoOutput struct {
	Todos []Todo `json:"todos" desc:"The list."`
}

func init() {
	juju.Tool("todo_write", editTool("Write todo list",
		"Replaces this workspace's todo list with todos, to plan and track a multi-step task: mark one item in_progress at a time and "+
			"completed when done. The list is kept by juju outside the repository and survives restarts; todo_read reads it back.",
		TodoOutput{}, false, true), todoWrite)
}

func todoWrite(_ *juju.Call, args TodoWriteArgs) (*juju.Result, error) {
	in := TodoOutput{Todos: make([]Todo, len(args.Todos))}
	for i, t := range args.Todos {
		in.Todos[i] = Todo(t)
	}
	if err := checkBlank(in.Todos); err != nil {
		return nil, err
	}
	if err := assignTodoIDs(in.Todos); err != nil {
		return nil, err
	}
	b, err := json.Marshal(in.Todos)
	if err != nil {
		return nil, juju.Errorf(abi.Internal, "the list could not be encoded")
	}
	text := renderTodos(in.Todos)
	if n := max(len(text), len(b)); n > maxTodoBytes {
		return nil, juju.Errorf(abi.InvalidArgument,
			"the list is %d bytes, more than the %d todo_read can return whole; keep each item to a short line and leave completed items out",
			n, maxTodoBytes)
	}
	if err := juju.StatePut(todoKey, b); err != nil {
		return nil, err
	}
	return juju.Text(text).WithStructured(TodoOutput{Todos: in.Todos}), nil
}

// maxTodoBytes bounds the list, as todo_read shows it and as it is kept:
// a list past what a client takes in one result (SPEC §4) was saved,
// and todo_read then showed its first items and a cut that no argument
// could read on from.
const maxTodoBytes = 64_000

// checkBlank refuses an item whose content, or id when one is given,
// holds nothing but white space: the schema's minimum length let "   "
// through, an item the list showed as nothing to do, and a blank id named
// an item no one could tell from its neighbour.
func checkBlank(todos []Todo) error {
	for i, t := range todos {
		if strings.TrimSpace(t.Content) == "" {
			return juju.Errorf(abi.InvalidArgument, "todo %d has no content, only white space; say in content what is to be done, or leave the item out", i+1)
		}
		if t.ID != "" && strings.TrimSpace(t.ID) == "" {
			return juju.Errorf(abi.InvalidArgument, "todo %d has an id of white space only; give it a visible id, or leave id out to number it by its position", i+1)
		}
	}
	return nil
}

// assignTodoIDs refuses two items given the same id, and gives each item
// without one its position, or the next number no item holds: an id names
// one item, whatever the model later asks about it.
func assignTodoIDs(todos []Todo) error {
	taken := make(map[string]int, len(todos))
	for i, t := range todos {
		if t.ID == "" {
			continue
		}
		if j, dup := taken[t.ID]; dup {
			return juju.Errorf(abi.InvalidArgument, "todos %d and %d both have id %s; give each item an id of its own, or leave id out to number it by its position",
				j+1, i+1, abi.Quote(t.ID))
		}
		taken[t.ID] = i
	}
	next := 0
	for i := range todos {
		if todos[i].ID != "" {
			continue
		}
		id := fmt.Sprint(i + 1)
		for _, held := taken[id]; held; _, held = taken[id] {
			next++
			id = fmt.Sprint(len(todos) + next)
		}
		todos[i].ID, taken[id] = id, i
	}
	return nil
}

func renderTodos(todos []Todo) string {
	if len(todos) == 0 {
		return "The todo list is empty.\n"
	}
	var b strings.Builder
	done := 0
	for _, t := range todos {
		mark := "[ ]"
		switch t.Status {
		case "in_progress":
			mark = "[~]"
		case "completed":
			mark = "[x]"
			done++
		}
		fmt.Fprintf(&b, "%s %s. %s", mark, juju.LineText(t.ID), juju.LineText(t.Content))
		if t.Priority != "" {
			fmt.Fprintf(&b, " (%s)", t.Priority)
		}
		if t.Status == "in_progress" && strings.TrimSpace(t.ActiveForm) != "" {
			fmt.Fprintf(&b, ": now %s", juju.LineText(t.ActiveForm))
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%d of %d done.\n", done, len(todos))
	return b.String()
}
