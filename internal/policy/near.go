package policy

import (
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/jujutools/juju/sdk/abi"
)

// maxNearEntries bounds the entries nearName reads of one folder: it runs
// only for a name that does not exist, but a folder may hold millions.
const maxNearEntries = 10_000

// nearName returns the name in dir (the folder parent of root) that name
// misses only by its letter case or by how its accented letters are
// encoded: "Café.md" written with é as one code point (NFC, as keyboards
// and models write it) where the disk holds e and a combining accent
// (NFD, as macOS wrote it), which list_directory shows the same. Only a
// name a listing shows is returned: visible by the name rules, and no
// symbolic link (whose target a listing may withhold). "" when there is
// none.
func (p *Policy) nearName(root *Root, parent string, dir *os.Root, name string) string {
	f, err := dir.Open(".")
	if err != nil {
		return ""
	}
	defer f.Close()
	want := norm.NFC.String(name)
	for seen := 0; seen < maxNearEntries; {
		names, err := f.Readdirnames(256)
		for _, e := range names {
			if e == name || !utf8.ValidString(e) {
				continue
			}
			if got := norm.NFC.String(e); got != want && !strings.EqualFold(got, want) {
				continue
			}
			if p.Hidden(root, path.Join(parent, e)) {
				continue
			}
			if fi, err := dir.Lstat(e); err != nil || fi.Mode()&fs.ModeSymlink != 0 {
				continue
			}
			return e
		}
		seen += len(names)
		if err != nil {
			break
		}
	}
	return ""
}

// nearNameError answers req, whose name in the folder parent does not
// exist where near, a name that differs only by letter case or Unicode
// normalization, does. Both names are quoted with a code point for each
// letter that is not ASCII, so that the model sees how they differ.
func nearNameError(req, parent, name, near string) *abi.Error {
	why := "in letter case"
	if norm.NFC.String(near) == norm.NFC.String(name) {
		why = "in how its accented letters are encoded (Unicode normalization: NFC or NFD), though the two look the same"
	}
	return abi.Errorf(abi.NotFound, "%s does not exist, but the folder %s holds %s, a name that differs from %s only %s; pass the path with that name (the quotes show each letter that is not ASCII by its code point)",
		abi.Quote(req), abi.Quote(parent), strconv.QuoteToASCII(near), strconv.QuoteToASCII(name), why)
}
