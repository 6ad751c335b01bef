// Command api serves the API.
package main

func main() { serve() }
