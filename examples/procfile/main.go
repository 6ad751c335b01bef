// Command procfile is an example third-party juju plugin: it lists the
// processes of Procfiles (the files foreman and honcho start) as runnable
// tasks. It reads the files through juju's fs host functions, so it asks
// for fs.read and nothing else, and it never runs anything.
//
// Build and install it with juju:
//
//	juju plugins build .
//	juju plugins install . --grant fs.read
//
// docs/PLUGINS.md walks through it.
package main

func main() {}
