module github.com/jujutools/juju/plugins

go 1.26.0

require github.com/jujutools/juju/sdk v0.0.0

require (
	github.com/extism/go-pdk v1.1.3
	github.com/pelletier/go-toml/v2 v2.4.3
	gopkg.in/yaml.v3 v3.0.1
)

require golang.org/x/image v0.48.0

replace github.com/jujutools/juju/sdk => ../sdk
