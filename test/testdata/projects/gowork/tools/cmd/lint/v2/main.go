// Command lint checks the sources.
package main

func main() {}
