// Command search is juju's core search plugin (core-search): search_code.
// It asks for fs.read and nothing else. The search itself runs on the host
// through the juju_search host function (ripgrep, with an argument list
// the host builds and a policy check of every file it reports); when the
// host has no ripgrep, the plugin searches by itself over the fs host
// functions, under a time cap, and says when the result is partial.
package main

func main() {}
