package test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// The SSRF guard, proven where it matters: juju runs inside a
// loopback-only network namespace made by the test, whose lo also carries
// the cloud metadata addresses (169.254.169.254, fd00:ec2::254) and
// private ones (10.0.0.1, 100.64.0.1, 192.168.1.10), each with a listener
// that records every connection it accepts; a hosts file maps names to
// them (DNS rebinding: the URL holds a name, the connection would go to a
// private address), and an allowed https server (dev.test:8443) redirects
// to each. The test asserts that every such fetch is refused and that no
// listener but the allowed server's ever accepted a connection. Nothing
// leaves the machine: the namespace has no interface but lo.

// netnsAddrs are the addresses put on lo inside the namespace.
var netnsAddrs = []string{"169.254.169.254/32", "10.0.0.1/32", "100.64.0.1/32", "192.168.1.10/32", "fd00:ec2::254/128"}

// netnsLocal are blocks routed to lo as local ("AnyIP"): the machine
// answers on them though no interface lists them.
var netnsLocal = []string{"9.9.9.0/24"}

// netnsTargets are the listeners that must never see a connection.
var netnsTargets = []string{"9.9.9.9:443", "169.254.169.254:443", "10.0.0.1:443", "100.64.0.1:443", "192.168.1.10:443", "[fd00:ec2::254]:443",
	"127.0.0.1:443", "[::1]:443"}

const (
	netnsDev   = "127.0.0.1:8443" // the allowed server, as dev.test:8443
	netnsProxy = "127.0.0.1:3128" // where the proxy variables point
)

const netnsHosts = `127.0.0.1 localhost
::1 localhost ip6-localhost
127.0.0.1 dev.test
169.254.169.254 metadata.test metadata.google.internal
10.0.0.1 intranet.test both.test
169.254.169.254 both.test
100.64.0.1 cgnat.test
192.168.1.10 router.test
fd00:ec2::254 metadata6.test
9.9.9.9 anyip.test
`

// netnsUnshare returns the unshare command line that runs a program as
// root in new network and mount namespaces (or, for a user without
// privileges, in a new user namespace too), or skips the test saying why
// namespaces are unavailable here.
func netnsUnshare(t *testing.T) []string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("network namespaces are a Linux feature; the SSRF guard's namespace tests run on Linux only")
	}
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("namespaces unavailable: %s is not installed (util-linux, iproute2)", tool)
		}
	}
	var reasons []string
	for _, c := range [][]string{
		{"unshare", "--net", "--mount", "--"},
		{"unshare", "--user", "--map-root-user", "--net", "--mount", "--"},
	} {
		out, err := exec.Command(c[0], append(c[1:], "ip", "link", "set", "lo", "up")...).CombinedOutput()
		if err == nil {
			return c
		}
		reasons = append(reasons, fmt.Sprintf("%s: %v %s", strings.Join(c[:len(c)-1], " "), err, strings.TrimSpace(string(out))))
	}
	t.Skipf("network namespaces are unavailable here: %s", strings.Join(reasons, "; "))
	return nil
}

var netnsHelper = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "juju-netns-*")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "netns")
	cmd := exec.Command("go", "build", "-o", bin, "./test/internal/netns")
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the netns helper: %v\n%s", err, out)
	}
	return bin, nil
})

// netnsSession starts juju inside the namespace: trusted mode, web fetches
// on, dev.test:8443 allowed, its certificate trusted through
// SSL_CERT_FILE, and every proxy variable pointing at a listening proxy.
// It returns the session and the accept log.
func netnsSession(t *testing.T) (*session, string) {
	t.Helper()
	unshare := netnsUnshare(t)
	helper, err := netnsHelper()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	der, certFile, keyFile := newCert(t, "dev.test", "127.0.0.1")
	trustCert(t, der)
	for _, k := range []string{"HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy", "HTTP_PROXY", "http_proxy"} {
		t.Setenv(k, "http://"+netnsProxy)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	spec := map[string]any{
		"addrs": netnsAddrs, "local": netnsLocal, "hosts": netnsHosts, "listeners": append(append([]string(nil), netnsTargets...), netnsProxy),
		"server": map[string]string{"addr": netnsDev, "cert": certFile, "key": keyFile},
		"log":    filepath.Join(dir, "accepts.log"),
	}
	b, _ := json.Marshal(spec)
	specFile := filepath.Join(dir, "spec.json")
	if err := os.WriteFile(specFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	home := fetchHome(t, true, "dev.test:8443")
	wrap := append(append([]string(nil), unshare...), helper, "-spec", specFile, "--")
	s := startWrapped(t, home, workspace(t, map[string]string{"a.txt": "a\n"}), wrap, "--mode", "trusted")
	logText, _ := os.ReadFile(spec["log"].(string))
	for _, l := range append(append([]string(nil), netnsTargets...), netnsProxy, netnsDev) {
		if !strings.Contains(string(logText), "READY "+l+"\n") {
			t.Fatalf("the listener on %s did not prove it records accepts:\n%s", l, logText)
		}
	}
	return s, spec["log"].(string)
}

// accepts returns the connections recorded since the start, by listener.
func accepts(t *testing.T, logFile string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "ACCEPT" {
			n[f[1]]++
		}
	}
	return n
}

func TestFetchSSRFInNamespace(t *testing.T) {
	s, logFile := netnsSession(t)

	// The allowed server works, by its name and through SSL_CERT_FILE,
	// without the proxy the variables name: the setup is sound.
	if got := s.ok("fetch_url", map[string]any{"url": "https://dev.test:8443/page"}); !strings.Contains(got, "# Local docs") || !strings.Contains(got, "It *works*.") {
		t.Fatalf("the allowed server: %q", got)
	}
	if n := accepts(t, logFile); n[netnsDev] == 0 || n[netnsProxy] != 0 {
		t.Fatalf("accepts after the allowed fetch: %v (want the dev server, never the proxy)", n)
	}

	// Every other address: by IP, by a name that resolves to it, in IPv6
	// and IPv4-mapped forms, in decimal, octal, hex and short spellings, on
	// the allowed host at another port, and as the target of a redirect
	// from the allowed server.
	blocked := []string{
		"https://169.254.169.254/latest/meta-data/iam/security-credentials/",
		"https://metadata.test/latest/meta-data/",
		"https://metadata.google.internal/computeMetadata/v1/",
		"https://[fd00:ec2::254]/latest/meta-data/",
		"https://metadata6.test/",
		"https://10.0.0.1/", "https://intranet.test/", "https://both.test/",
		"https://100.64.0.1/", "https://cgnat.test/",
		"https://192.168.1.10/", "https://router.test/",
		"https://9.9.9.9/", "https://anyip.test/",
		"https://127.0.0.1/", "https://localhost/", "https://0.0.0.0/", "https://[::1]/", "https://[::]/",
		"https://[::ffff:169.254.169.254]/", "https://[::ffff:a9fe:a9fe]/", "https://[::ffff:10.0.0.1]/",
		"https://[64:ff9b::a9fe:a9fe]/", "https://[2002:a9fe:a9fe::1]/",
		"https://dev.test/", "https://dev.test:443/", "https://127.0.0.1:8443/",
	}
	// Spellings only a resolver could turn into an address: refused at
	// connect time if it does, unresolvable otherwise; never fetched.
	odd := []string{
		"https://2852039166/", "https://0251.0376.0251.0376/", "https://0xa9.0xfe.0xa9.0xfe/", "https://0xa9fea9fe/",
		"https://169.254.43518/", "https://127.1/", "https://0177.0.0.1/", "https://0/",
	}
	check := func(t *testing.T, u string, codes ...string) {
		t.Helper()
		before := accepts(t, logFile)
		res := s.call("fetch_url", map[string]any{"url": u})
		got, _ := structured(t, res)["code"].(string)
		if !res.IsError || !contains(codes, got) {
			t.Errorf("%s: want %v, got %s", u, codes, text(res))
		}
		after := accepts(t, logFile)
		for l, n := range after {
			if l != netnsDev && n != before[l] {
				t.Errorf("%s: the listener on %s accepted a connection", u, l)
			}
		}
	}
	for _, u := range blocked {
		check(t, u, "SSRF_BLOCKED")
		check(t, "https://dev.test:8443/to?u="+url.QueryEscape(u), "SSRF_BLOCKED")
	}
	for _, u := range odd {
		check(t, u, "SSRF_BLOCKED", "NOT_FOUND", "INVALID_ARGUMENT")
		check(t, "https://dev.test:8443/to?u="+url.QueryEscape(u), "SSRF_BLOCKED", "NOT_FOUND", "INVALID_ARGUMENT")
	}
	msg := structured(t, s.call("fetch_url", map[string]any{"url": "https://metadata.test/"}))["message"].(string)
	if !strings.Contains(msg, "169.254.169.254") || !strings.Contains(msg, "cloud metadata") {
		t.Errorf("the refusal does not name the address class: %q", msg)
	}

	n := accepts(t, logFile)
	for _, l := range append(append([]string(nil), netnsTargets...), netnsProxy) {
		if n[l] != 0 {
			t.Errorf("%s accepted %d connections", l, n[l])
		}
	}
}
