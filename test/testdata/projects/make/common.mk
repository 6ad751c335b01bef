.PHONY: docs
## docs: build the documentation
docs:
	mkdocs build
