module github.com/jujutools/juju/sdk

go 1.26
