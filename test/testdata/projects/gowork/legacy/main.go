// Command legacy is a module the go.work above does not use.
package main

func main() {}
