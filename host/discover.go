package host

import (
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/hostfns/discover"
	"github.com/jujutools/juju/sdk/abi"
)

// discoverFuncs returns the juju_discover_tasks host function over the
// catalog's serving plugins, core and installed, read at each call.
func (h *Host) discoverFuncs() []hostfns.Func {
	timeout := discover.DefaultTimeout
	if t := h.cfg.PluginTimeout; t > 0 && t < timeout {
		timeout = t
	}
	return discover.New(h.policy, discover.Options{Sources: h.discoverSources, Timeout: timeout})
}

// discoverSources lists the serving plugins that export discoverers.
func (h *Host) discoverSources() []discover.Source {
	var out []discover.Source
	for _, l := range h.Plugins() {
		if l.Err == nil && len(l.Manifest.Discoverers) > 0 {
			l.refreshGrants(h.log) // a revoke applies to the next overview too
			out = append(out, discoverSource{l})
		}
	}
	return out
}

// discoverSource is a loaded plugin seen by the discover host function.
type discoverSource struct{ *Loaded }

func (s discoverSource) Discoverers() []abi.DiscovererSpec { return s.Manifest.Discoverers }

var _ discover.Source = discoverSource{}
