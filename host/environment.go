package host

import (
	"github.com/jujutools/juju/hostfns/sysinfo"
)

// environmentSetup is what environment_info reports of juju itself.
func (h *Host) environmentSetup() sysinfo.Setup {
	var roots, writable []string
	for _, r := range h.policy.Roots() {
		roots = append(roots, r.Path)
		writable = append(writable, r.Path, r.Real)
	}
	return sysinfo.Setup{
		Version:  h.cfg.Version,
		Mode:     string(h.cfg.Mode),
		Roots:    roots,
		Writable: writable,
		Sandbox:  string(h.cfg.Sandbox),
		Deny:     h.policy.Deny(),
		Secrets:  h.policy.Secrets(),
		WebFetch: h.cfg.AllowWebFetch,
	}
}
