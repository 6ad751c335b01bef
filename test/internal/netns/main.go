//go:build linux

// Command netns is a helper of juju's end-to-end tests: run as root inside
// a fresh network and mount namespace (unshare --net --mount, or with
// --user --map-root-user), it makes a loopback-only network with extra
// addresses on lo (169.254.169.254, 10.0.0.1, fd00:ec2::254 …), bind-mounts
// a hosts file over /etc/hosts (and a resolv.conf that points at
// loopback), opens a listener on each address that records every
// connection accepted, serves an https test server, and then runs the
// command after "--" (juju stdio) with its own stdin and stdout, so a
// test's MCP client talks to juju inside the namespace.
//
//	netns -spec SPEC.json -- juju stdio --root DIR …
//
// Before the command starts, each listener is connected to once by the
// helper itself ("READY addr" in the log), proving it records accepts; a
// connection accepted afterwards is logged "ACCEPT addr from remote". The
// namespace holds only lo, so nothing can leave the machine.
package main

import (
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Spec is what the test asks for.
type Spec struct {
	Addrs     []string `json:"addrs"`     // CIDRs added to lo, e.g. "169.254.169.254/32"
	Local     []string `json:"local"`     // CIDRs routed to lo as local ("AnyIP"): on no interface
	Hosts     string   `json:"hosts"`     // the content of /etc/hosts inside
	Listeners []string `json:"listeners"` // host:port pairs that record accepts
	Server    struct {
		Addr string `json:"addr"` // host:port of the https test server
		Cert string `json:"cert"` // PEM files
		Key  string `json:"key"`
	} `json:"server"`
	Log string `json:"log"` // where accepts are recorded, one line each
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("netns: ")
	args := os.Args[1:]
	if len(args) < 4 || args[0] != "-spec" || args[2] != "--" {
		log.Fatal("usage: netns -spec SPEC.json -- COMMAND [ARG…]")
	}
	var spec Spec
	data, err := os.ReadFile(args[1])
	if err == nil {
		err = json.Unmarshal(data, &spec)
	}
	if err != nil {
		log.Fatalf("reading the spec: %v", err)
	}
	rec, err := newRecorder(spec.Log)
	if err != nil {
		log.Fatal(err)
	}
	if err := network(spec.Addrs, spec.Local); err != nil {
		log.Fatal(err)
	}
	if err := files(spec.Hosts, filepath.Dir(spec.Log)); err != nil {
		log.Fatal(err)
	}
	for _, a := range spec.Listeners {
		if err := rec.listen(a); err != nil {
			log.Fatal(err)
		}
	}
	if spec.Server.Addr != "" {
		if err := rec.serve(spec.Server.Addr, spec.Server.Cert, spec.Server.Key); err != nil {
			log.Fatal(err)
		}
	}
	if err := rec.selfTest(); err != nil {
		log.Fatal(err)
	}
	cmd := exec.Command(args[3], args[4:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			os.Exit(exit.ExitCode())
		}
		log.Fatal(err)
	}
}

// network brings lo up, adds the addresses and routes the local blocks
// to it. There is no other interface, so no route leaves the namespace.
func network(addrs, local []string) error {
	cmds := [][]string{{"ip", "link", "set", "lo", "up"}}
	for _, a := range addrs {
		c := []string{"ip", "addr", "add", a, "dev", "lo"}
		if strings.Contains(a, ":") {
			c = append(c, "nodad")
		}
		cmds = append(cmds, c)
	}
	for _, l := range local {
		cmds = append(cmds, []string{"ip", "route", "add", "local", l, "dev", "lo"})
	}
	for _, c := range cmds {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v: %s", strings.Join(c, " "), err, out)
		}
	}
	ifaces, err := net.Interfaces()
	if err != nil {
		return err
	}
	for _, i := range ifaces {
		if i.Flags&net.FlagLoopback == 0 && i.Flags&net.FlagUp != 0 {
			return fmt.Errorf("interface %s is up: this is not a loopback-only namespace", i.Name)
		}
	}
	return nil
}

// files bind-mounts the hosts file, and a resolv.conf naming only
// loopback, over the system's: the namespace has its own mounts.
func files(hosts, dir string) error {
	for target, content := range map[string]string{"/etc/hosts": hosts, "/etc/resolv.conf": "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n"} {
		src := filepath.Join(dir, "netns-"+filepath.Base(target))
		if err := os.WriteFile(src, []byte(content), 0o644); err != nil {
			return err
		}
		real, err := filepath.EvalSymlinks(target)
		if os.IsNotExist(err) && target == "/etc/resolv.conf" {
			continue // no resolver configured: nothing to point at loopback
		}
		if err != nil {
			return err
		}
		if err := syscall.Mount(src, real, "", syscall.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind-mounting %s: %w", target, err)
		}
	}
	return nil
}

// recorder logs every accepted connection.
type recorder struct {
	mu       sync.Mutex
	f        *os.File
	testing  atomic.Bool
	addrs    []string
	readyFor map[string]chan struct{}
}

func newRecorder(path string) (*recorder, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &recorder{f: f, readyFor: map[string]chan struct{}{}}, nil
}

func (r *recorder) logf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.f, format+"\n", args...)
	r.f.Sync()
}

// accepted records one connection to the listener at addr.
func (r *recorder) accepted(addr string, c net.Conn) {
	if r.testing.Load() {
		r.logf("READY %s", addr)
		r.mu.Lock()
		ch := r.readyFor[addr]
		r.mu.Unlock()
		select {
		case ch <- struct{}{}:
		default:
		}
		return
	}
	r.logf("ACCEPT %s from %s", addr, c.RemoteAddr())
}

// listen opens a listener that records accepts and closes each connection.
func (r *recorder) listen(addr string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	r.track(addr)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			r.accepted(addr, c)
			c.Close()
		}
	}()
	return nil
}

func (r *recorder) track(addr string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.addrs = append(r.addrs, addr)
	r.readyFor[addr] = make(chan struct{}, 1)
}

// serve runs the https test server: /ok answers, /page is an HTML page,
// /to?u=URL redirects to URL. Its accepts are recorded too.
func (r *recorder) serve(addr, certFile, keyFile string) error {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	r.track(addr)
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			switch req.URL.Path {
			case "/ok":
				io.WriteString(w, "hello from the allowed server\n")
			case "/page":
				w.Header().Set("Content-Type", "text/html")
				io.WriteString(w, "<html><head><title>Dev</title></head><body><h1>Local docs</h1><p>It <em>works</em>.</p></body></html>")
			case "/to":
				http.Redirect(w, req, req.URL.Query().Get("u"), http.StatusFound)
			default:
				http.NotFound(w, req)
			}
		}),
		ConnState: func(c net.Conn, st http.ConnState) {
			if st == http.StateNew {
				r.accepted(addr, c)
			}
		},
		TLSConfig:   &tls.Config{Certificates: []tls.Certificate{cert}},
		ErrorLog:    log.New(io.Discard, "", 0),
		ReadTimeout: 10 * time.Second,
	}
	go srv.ServeTLS(l, "", "")
	return nil
}

// selfTest connects to every listener once and waits for its accept to be
// recorded, so a test that finds no ACCEPT line knows the listener works.
func (r *recorder) selfTest() error {
	r.testing.Store(true)
	defer r.testing.Store(false)
	for _, a := range r.addrs {
		c, err := net.DialTimeout("tcp", a, 2*time.Second)
		if err != nil {
			return fmt.Errorf("self-test of %s: %w", a, err)
		}
		select {
		case <-r.readyFor[a]:
		case <-time.After(5 * time.Second):
			return fmt.Errorf("self-test of %s: no accept recorded", a)
		}
		c.Close()
	}
	return nil
}
