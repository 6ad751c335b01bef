package core

import "testing"

// BenchmarkPlugins decodes the embedded manifests, as every start of juju
// does before it answers initialize.
func BenchmarkPlugins(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Plugins(); err != nil {
			b.Fatal(err)
		}
	}
}
