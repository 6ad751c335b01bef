//go:build !unix

package proc

// CloseInheritedOnExec does nothing here: a Windows handle is inherited
// only when marked so and named to the child.
func CloseInheritedOnExec() {}
