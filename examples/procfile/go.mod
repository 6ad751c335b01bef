module example.com/juju-procfile

go 1.26

require github.com/jujutools/juju/sdk v0.0.0

// Outside juju's repository, point this at your checkout of juju's sdk/.
replace github.com/jujutools/juju/sdk => ../../sdk
