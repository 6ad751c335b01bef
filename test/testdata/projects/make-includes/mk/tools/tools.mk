.PHONY: tools
## tools: install the tools
tools:
	go install tool
