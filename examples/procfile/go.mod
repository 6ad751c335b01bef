module example.com/juju-procfile

go 1.26

require github.com/jujutools/juju/sdk v0.0.0

require github.com/extism/go-pdk v1.1.3 // indirect

// Outside juju's repository, point this at your checkout of juju's sdk/.
replace github.com/jujutools/juju/sdk => ../../sdk
