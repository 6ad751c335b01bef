# juju — build, run, test, bench.
#
#   make run     build juju and serve the current folder over stdio
#   make serve   build juju and serve the current folder over HTTP (127.0.0.1:7777)
#   make test    install what the tests need, build everything, run every test
#   make bench   the performance report (figures and ratios, SPEC §11)
#   make cross   build and vet juju for every release platform

GO        ?= go
BIN       := bin/juju
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X main.version=$(VERSION)
# Every folder under plugins/ with a manifest.json is a core plugin (testplugins are built by the
# tests); one whose manifest names another's module (plugins/exec: core's) is stamped from it.
CORE      := $(sort $(patsubst %/manifest.json,%,$(wildcard plugins/*/manifest.json)))
ROOT      ?= $(CURDIR)
# Each entry is PACKAGE or PACKAGE:BINARY (the binary whose absence triggers the install).
# make, go, npm, cargo, mvn, just, task and mise are the oracles of the
# overview tests (test/overview_oracle_test.go); the last three are not
# Debian packages here: npm packages that ship the binary, and a Go module.
# chromium is the browser of the OAuth consent test (test/serve_browser_test.go).
APT_PKGS  := git bubblewrap:bwrap ripgrep:rg make npm cargo maven:mvn chromium gcc
NPM_PKGS  := rust-just@1.57.0:just @jdxcode/mise@2026.9.15:mise
GO_TOOLS  := github.com/go-task/task/v3/cmd/task@v3.54.0:task
# The pinned MCP conformance suite (package.json + package-lock.json).
CONFORMANCE := test/conformance
# The pinned MCP TypeScript SDK whose client drives juju in test/interop_test.go.
INTEROP   := test/interop
# The platforms juju is released for (GOOS/GOARCH), built and vetted by `make cross`.
PLATFORMS := darwin/arm64 darwin/amd64 linux/arm64 linux/amd64 windows/amd64

.PHONY: all build plugins run serve test test-go vet cross deps lsp-servers conformance-deps interop-deps bench fuzz clean

all: build

## plugins: build the core plugins (wasm) into host/core/wasm for embedding, and host/core/wasmfiles.go,
## which embeds them as strings so that juju compiles them from the binary without a copy
plugins:
	$(GO) run ./internal/cmd/buildplugins -check -prune -out host/core/wasm -embed host/core/wasmfiles.go $(CORE)

## build: plugins → wasm → embedded → bin/juju, and bin/juju-sandbox (the sandbox helper, used from beside juju)
## Both are linked statically (no cgo): a sandboxed command starts juju-sandbox twice, and
## a dynamically linked program's start pays for the loader (docs/RATIONALE.md).
build: plugins
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/juju
	CGO_ENABLED=0 $(GO) build -trimpath -o $(dir $(BIN))juju-sandbox ./cmd/juju-sandbox

## run: build, explain how to connect a client, and serve ROOT (default: here)
run: build
	@./scripts/connect-help.sh "$(CURDIR)/$(BIN)" "$(ROOT)"
	@./$(BIN) doctor --warm --root "$(ROOT)" >&2 || true
	@echo "juju is now serving MCP on this terminal (stdin/stdout) for $(ROOT). Press Ctrl-D to stop." >&2
	@./$(BIN) stdio --root "$(ROOT)"

## serve: build, and serve ROOT (default: here) over streamable HTTP for clients that connect by URL
serve: build
	@./$(BIN) doctor --warm --root "$(ROOT)" >&2 || true
	@echo "juju is now serving MCP over HTTP for $(ROOT). Press Ctrl-C to stop." >&2
	@./$(BIN) serve --root "$(ROOT)"

## deps: system packages and tools the tests use (installed only when missing)
deps:
	@missing=""; for p in $(APT_PKGS); do command -v $${p##*:} >/dev/null 2>&1 || missing="$$missing $${p%%:*}"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		(apt-get update -qq && apt-get install -y -qq $$missing) >/dev/null; \
	fi
	@for p in $(NPM_PKGS); do command -v $${p##*:} >/dev/null 2>&1 || { echo "installing $${p%:*}"; npm install -g --no-audit --no-fund $${p%:*} >/dev/null; }; done
	@for p in $(GO_TOOLS); do command -v $${p##*:} >/dev/null 2>&1 || { echo "installing $${p%:*}"; GOBIN=/usr/local/bin $(GO) install $${p%:*}; }; done

## lsp-servers: the language servers the LSP tests run against, pinned (installed only when missing):
## gopls with go install into test/lspservers/bin, pyright with npm ci from test/lspservers/package-lock.json
GOPLS_VERSION := v0.23.0
lsp-servers:
	@test -x test/lspservers/bin/gopls || GOBIN="$(CURDIR)/test/lspservers/bin" $(GO) install golang.org/x/tools/gopls@$(GOPLS_VERSION)
	@test -x test/lspservers/node_modules/.bin/pyright-langserver || \
		(command -v npm >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq nodejs npm) >/dev/null; \
		 cd test/lspservers && npm ci --no-audit --no-fund)

vet: plugins
	$(GO) vet ./...
	cd sdk && GOOS=wasip1 GOARCH=wasm $(GO) vet ./...
	cd plugins && GOOS=wasip1 GOARCH=wasm $(GO) vet ./...
	cd examples/procfile && GOOS=wasip1 GOARCH=wasm $(GO) vet ./...
	@test -z "$$(gofmt -l . | tee /dev/stderr)" || (echo "gofmt: files above need formatting" && exit 1)

## conformance-deps: the MCP conformance suite, from the lock file (only when missing)
conformance-deps:
	@test -d $(CONFORMANCE)/node_modules/@modelcontextprotocol/conformance || \
		(cd $(CONFORMANCE) && npm ci --no-audit --no-fund)

## interop-deps: the MCP TypeScript SDK, from the lock file (only when missing)
interop-deps:
	@test -d $(INTEROP)/node_modules/@modelcontextprotocol/sdk || \
		(cd $(INTEROP) && npm ci --no-audit --no-fund)

## cross: build and vet juju for every release platform, without cgo, so a
## call that exists on one system only (syscall.Fdatasync) cannot slip in
cross: plugins
	@set -e; for p in $(PLATFORMS); do \
		echo "cross: $$p"; \
		CGO_ENABLED=0 GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -trimpath -o /dev/null ./cmd/juju; \
		CGO_ENABLED=0 GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -trimpath -o /dev/null ./cmd/juju-sandbox; \
		CGO_ENABLED=0 GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) vet ./...; \
	done

## test: everything a fresh machine needs, then the whole suite (the conformance suite and the SDK client must run)
test: deps lsp-servers vet cross conformance-deps interop-deps
	cd sdk && $(GO) test ./...
	cd examples/procfile && $(GO) test ./...
	cd plugins && $(GO) test $$($(GO) list ./... | grep -v /testplugins)
	JUJU_CONFORMANCE=require JUJU_BROWSER=require $(GO) test -race -timeout 45m ./...

## bench: the SPEC §11 report; BENCHTIME=… to change the sample size. It installs what it
##        measures against when missing: ripgrep and bubblewrap (deps), gopls (lsp-servers)
bench: build deps lsp-servers
	$(GO) run ./test/bench/report -bin $(BIN)

## fuzz: a short run (FUZZTIME each) of every fuzzer: each `func Fuzz…` of a *_test.go in any
##       module of the tree (testdata aside), run in its own package and module. The seeds
##       alone run in `make test`.
FUZZTIME  ?= 10s
fuzz: plugins
	@set -e; \
	for file in $$(grep -rlE --include='*_test.go' --exclude-dir=testdata --exclude-dir=.git '^func Fuzz[A-Za-z0-9_]*\(' . | sort); do \
		dir=$$(dirname $$file); mod=$$dir; \
		while [ ! -f $$mod/go.mod ]; do mod=$$(dirname $$mod); done; \
		pkg=.$${dir#$$mod}; \
		for fn in $$(sed -nE 's/^func (Fuzz[A-Za-z0-9_]*)\(.*/\1/p' $$file); do \
			echo "== $$fn ($$mod: $$pkg)"; \
			(cd $$mod && $(GO) test -run='^$$' -fuzz="^$$fn\$$" -fuzztime=$(FUZZTIME) $$pkg); \
		done; \
	done
	$(GO) test -run=^$$ -fuzz=FuzzDecode -fuzztime=20s ./internal/manifest
	$(GO) test -run=^$$ -fuzz=FuzzUntar -fuzztime=20s ./host/install
	$(GO) test -run=^$$ -fuzz=FuzzResolve -fuzztime=20s ./internal/policy
	$(GO) test -run=^$$ -fuzz=FuzzParsePatch -fuzztime=20s ./internal/journal/text
	$(GO) test -run=^$$ -fuzz=FuzzEditText -fuzztime=20s ./internal/journal/text
	$(GO) test -run=^$$ -fuzz=FuzzCheckURL -fuzztime=20s ./hostfns/fetch
	$(GO) test -run=^$$ -fuzz=FuzzClassify -fuzztime=20s ./hostfns/fetch

clean:
	rm -rf bin host/core/wasm/*/ host/core/wasmfiles.go
