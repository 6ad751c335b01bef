// Command enumgen writes String methods.
package main

func main() {}
