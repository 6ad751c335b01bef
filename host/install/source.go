package install

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/internal/visible"
)

// Limits on what an install reads.
const (
	MaxWasmSize     = 64 << 20 // one plugin's wasm
	MaxDownloadSize = 64 << 20 // an archive fetched from a URL
	DownloadTimeout = 2 * time.Minute
)

// isURL reports whether src names a URL rather than a path.
func isURL(src string) bool {
	return strings.Contains(src, "://")
}

// isArchive reports whether src names a .tar.gz (or .tgz) of a plugin folder.
func isArchive(src string) bool {
	return strings.HasSuffix(src, ".tar.gz") || strings.HasSuffix(src, ".tgz")
}

// stage copies the plugin at src (folder, archive or URL) into the empty
// folder dst: manifest.json and the wasm it names, nothing else. It
// returns the hex sha256 of the archive it read whole, "" for a folder.
func stage(ctx context.Context, src, dst string, o *Options) (string, error) {
	switch {
	case isURL(src):
		return stageURL(ctx, src, dst, o)
	case isArchive(src):
		f, err := os.Open(src)
		if err != nil {
			return "", err
		}
		defer f.Close()
		h := sha256.New()
		if err := untar(io.TeeReader(f, h), dst); err != nil {
			return "", err
		}
		// The rest after the gzip stream, if any, belongs to the file's
		// sha256 too; a plugin archive has none, or little.
		if _, err := io.Copy(h, io.LimitReader(f, MaxDownloadSize)); err != nil {
			return "", err
		}
		return hex.EncodeToString(h.Sum(nil)), nil
	default:
		return "", stageFolder(src, dst)
	}
}

// stageFolder copies manifest.json and the wasm it names from a folder.
func stageFolder(src, dst string) error {
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is neither a plugin folder nor a .tar.gz of one", src)
	}
	mdata, err := readCapped(filepath.Join(src, manifest.FileName), manifest.MaxSize)
	if err != nil {
		return err
	}
	file, err := wasmFile(mdata)
	if err != nil {
		return err
	}
	wasm, err := readCapped(filepath.Join(src, file), MaxWasmSize)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dst, manifest.FileName), mdata, 0o600); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dst, file), wasm, 0o600)
}

// wasmFile returns the wasm file name a manifest gives, checked as a plain
// name, before the manifest is validated in full.
func wasmFile(mdata []byte) (string, error) {
	m, err := manifest.DecodeSource(mdata)
	if err != nil {
		if unbuilt(mdata) {
			return "", fmt.Errorf("%w: %s", err, unbuiltHint)
		}
		return "", err
	}
	return m.Wasm.File, nil
}

// readCapped reads a regular file of at most max bytes; a symlink is not
// followed out of a plugin folder.
func readCapped(p string, max int64) ([]byte, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", filepath.Base(p))
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%s is larger than %d MiB", filepath.Base(p), max>>20)
	}
	return os.ReadFile(p)
}

// Bounds of an archive's content, read or not: what it unpacks to (a
// gzip of zeros unpacks a thousand times larger) and how many entries.
const (
	maxArchiveBytes   = 4 * MaxWasmSize
	maxArchiveEntries = 4096
)

// untar extracts a plugin archive: regular files at its top or inside one
// folder, of which only manifest.json and the one .wasm file are kept.
// Links, devices, deeper paths, files in two folders, a second .wasm,
// oversized files and archives unpacking past their bounds are refused.
func untar(r io.Reader, dst string) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("reading the archive: %w", err)
	}
	unpacked := &countingReader{r: gz, max: maxArchiveBytes}
	tr := tar.NewReader(unpacked)
	found := map[string]bool{}
	folder, wasm, entries := "", "", 0
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("reading the archive: %w", err)
		}
		if entries++; entries > maxArchiveEntries {
			return fmt.Errorf("the archive holds more than %d entries; a plugin archive holds its manifest and its wasm", maxArchiveEntries)
		}
		name := path.Clean(strings.TrimPrefix(h.Name, "./"))
		switch h.Typeflag {
		case tar.TypeDir:
			continue
		case tar.TypeReg:
		default:
			return fmt.Errorf("the archive holds %s, which is not a regular file", h.Name)
		}
		parts := strings.Split(name, "/")
		if len(parts) > 2 || strings.HasPrefix(name, "/") || slices.Contains(parts, "..") {
			return fmt.Errorf("the archive holds %s: a plugin archive holds its files at its top or in one folder", h.Name)
		}
		if len(parts) == 2 {
			if folder != "" && parts[0] != folder {
				return fmt.Errorf("the archive holds files in %s and in %s: a plugin archive holds its files at its top or in one folder", folder, parts[0])
			}
			folder = parts[0]
		}
		base := parts[len(parts)-1]
		if base != manifest.FileName && !strings.HasSuffix(base, ".wasm") {
			continue
		}
		if found[base] {
			return fmt.Errorf("the archive holds %s twice", base)
		}
		found[base] = true
		if base != manifest.FileName {
			if wasm != "" {
				return fmt.Errorf("the archive holds two .wasm files, %s and %s; a plugin archive holds its manifest and its one wasm", wasm, base)
			}
			wasm = base
		}
		if h.Size > MaxWasmSize {
			return fmt.Errorf("%s in the archive is larger than %d MiB", base, MaxWasmSize>>20)
		}
		data, err := io.ReadAll(io.LimitReader(tr, MaxWasmSize+1))
		if err != nil {
			return fmt.Errorf("reading the archive: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dst, base), data, 0o600); err != nil {
			return err
		}
	}
	if unpacked.over {
		return fmt.Errorf("the archive unpacks to more than %d MiB", maxArchiveBytes>>20)
	}
	if !found[manifest.FileName] {
		return fmt.Errorf("the archive holds no %s", manifest.FileName)
	}
	return nil
}

// countingReader reads r up to max bytes, then reports the end (and over).
type countingReader struct {
	r    io.Reader
	n    int64
	max  int64
	over bool
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.n >= c.max {
		c.over = true
		return 0, fmt.Errorf("the archive unpacks to more than %d MiB", c.max>>20)
	}
	if int64(len(p)) > c.max-c.n {
		p = p[:c.max-c.n]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// stageURL downloads a plugin archive over https, under a size and a time
// cap, with a progress line, and extracts it.
func stageURL(ctx context.Context, src, dst string, o *Options) (string, error) {
	u, err := url.Parse(src)
	if err != nil {
		return "", fmt.Errorf("bad URL: %w", err)
	}
	if u.Scheme != "https" {
		return "", fmt.Errorf("only https URLs are installed from, not %s://", u.Scheme)
	}
	if u.User != nil {
		return "", errors.New("a URL with credentials is not accepted")
	}
	ctx, cancel := context.WithTimeout(ctx, o.downloadTimeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	client := o.HTTPClient
	if client == nil {
		client = &http.Client{}
	}
	c := *client
	c.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if r.URL.Scheme != "https" {
			return fmt.Errorf("redirected to %s://, only https is followed", r.URL.Scheme)
		}
		if len(via) >= 5 {
			return errors.New("too many redirects")
		}
		return nil
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", fmt.Errorf("downloading: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("downloading: the server answered %s", resp.Status)
	}
	if resp.ContentLength > MaxDownloadSize {
		return "", fmt.Errorf("downloading: the archive is %d bytes, more than the %d MiB limit", resp.ContentLength, MaxDownloadSize>>20)
	}
	tmp, err := os.CreateTemp(dst, ".download-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	// The name is the URL's, percent-decoded: %1b would be an escape
	// sequence on the owner's terminal, from a URL its author wrote.
	pw := &progress{w: o.Progress, redraw: isTerminal(o.Progress), total: resp.ContentLength, label: "downloading " + visible.String(path.Base(u.Path))}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, pw, h), io.LimitReader(resp.Body, MaxDownloadSize+1))
	pw.done(err == nil && n <= MaxDownloadSize)
	if err != nil {
		return "", fmt.Errorf("downloading: %w", err)
	}
	if n > MaxDownloadSize {
		return "", fmt.Errorf("downloading: the archive is larger than the %d MiB limit", MaxDownloadSize>>20)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	if err := untar(tmp, dst); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// progress writes "label: 1.2 MiB / 3.4 MiB" on one line, redrawn at most
// every 100 ms when w is a terminal, and a final line at done. A log or a
// pipe gets the final line only, not a line of carriage returns that grows
// by one amount every 100 ms of the download.
type progress struct {
	w      io.Writer
	redraw bool
	total  int64
	n      int64
	label  string
	last   time.Time
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func (p *progress) Write(b []byte) (int, error) {
	p.n += int64(len(b))
	if p.w != nil && p.redraw && time.Since(p.last) > 100*time.Millisecond {
		p.last = time.Now()
		fmt.Fprintf(p.w, "\r%s: %s", p.label, p.amount())
	}
	return len(b), nil
}

func (p *progress) amount() string {
	if p.total > 0 {
		return fmt.Sprintf("%s / %s", size(p.n), size(p.total))
	}
	return size(p.n)
}

// done ends the line: "done" when the download ended well, "stopped"
// otherwise (the error follows).
func (p *progress) done(ok bool) {
	if p.w == nil {
		return
	}
	cr, end := "", "done"
	if p.redraw {
		cr = "\r"
	}
	if !ok {
		end = "stopped"
	}
	fmt.Fprintf(p.w, "%s%s: %s, %s\n", cr, p.label, p.amount(), end)
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
