.PHONY: docs
docs: ; mkdocs build ## build the documentation
