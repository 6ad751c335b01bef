.PHONY: build lint

build: ## compile the binary
	go build ./...

lint:
	golangci-lint run

# dist gets its recipe here; the Makefile only adds a prerequisite.
dist:
	tar czf dist.tgz out
