package policy

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"

	"github.com/jujutools/juju/sdk/abi"
)

// The messages below name only what the model asked for or what lies inside
// a root: never a host path outside the roots.

func secretError(display string) *abi.Error {
	return abi.Errorf(abi.SecretDenied, "%s is a secret (keys, credentials, .env files and the like are never readable, listable or writable through juju); do the task without it or ask the owner", abi.Quote(display))
}

func privateError(display string) *abi.Error {
	return abi.Errorf(abi.SecretDenied, "%s is part of juju's own state or configuration, which no tool may touch; choose a path in the workspace instead", abi.Quote(display))
}

func deniedError(display string) *abi.Error {
	return abi.Errorf(abi.PathDenied, "%s is excluded by the owner's deny rules; choose another path", abi.Quote(display))
}

func (p *Policy) outsideError(req string) *abi.Error {
	return abi.Errorf(abi.PathDenied, "%s resolves outside the workspace; use a path relative to the workspace root, or an absolute path under %s", abi.Quote(req), p.rootList())
}

func (p *Policy) linkOutError(req string) *abi.Error {
	return abi.Errorf(abi.PathDenied, "%s goes through a symbolic link that leads outside the workspace, which juju does not follow; use a path inside %s", abi.Quote(req), p.rootList())
}

func (p *Policy) rootList() string {
	names := make([]string, len(p.roots))
	for i, r := range p.roots {
		names[i] = r.Path
	}
	return strings.Join(names, ", ")
}

func notFoundError(req string) *abi.Error {
	return abi.Errorf(abi.NotFound, "%s does not exist; %scheck the name with list_directory or glob_files", abi.Quote(req), pathHint(req))
}

// pathHint names what in req a model wrote as it would for a shell or a
// browser, which a path here is not: "~" is not the home folder, a
// file:// URL is not a path, white space before or after a name is part
// of it, and a backslash is no folder separator (as it is on Windows).
// Without the hint "does not exist" reads as the file's absence.
func pathHint(req string) string {
	switch {
	case req == "~" || strings.HasPrefix(req, "~/"):
		return "juju does not expand ~ to the home folder (it names a folder \"~\" in the workspace): name the path relative to the workspace root, or absolute inside it; "
	case len(req) >= 5 && strings.EqualFold(req[:5], "file:"):
		return "juju takes paths, not file:// URLs: pass the path itself (what follows file://); "
	case strings.TrimSpace(req) != req:
		return "the path begins or ends in white space, which is part of a name: pass it without; "
	case strings.Contains(req, `\`):
		return "juju separates folders with / only, and a \\ is a letter of a name here: pass " + abi.Quote(strings.ReplaceAll(req, `\`, "/")) + " for folders; "
	}
	return ""
}

func danglingError(req, display string) *abi.Error {
	return abi.Errorf(abi.NotFound, "%s goes through a symbolic link to %s, which does not exist; check the link with list_directory", abi.Quote(req), abi.Quote(display))
}

// NotDirError answers req, which names display as a folder (a trailing
// slash, or a name below it), when display is a file: every tool, reading
// or changing, answers so.
func NotDirError(req, display string) *abi.Error {
	return abi.Errorf(abi.NotFound, "%s does not exist: %s is a file, not a folder; check the path with list_directory", abi.Quote(req), abi.Quote(display))
}

func loopError(req string) *abi.Error {
	return abi.Errorf(abi.InvalidArgument, "%s goes through too many symbolic links (more than %d, probably a loop); use the path of the file itself", abi.Quote(req), maxHops)
}

func linkSizeError(req string) *abi.Error {
	return abi.Errorf(abi.InvalidArgument, "%s goes through symbolic links whose targets hold more than %d names together; use the path of the file itself", abi.Quote(req), maxLinkNames)
}

func changedError(display string) *abi.Error {
	return abi.Errorf(abi.FileChanged, "%s changed on disk while it was being opened (a file or folder was replaced); try again", abi.Quote(display))
}

// osError turns an error of a file operation on display into a tool error.
func osError(req, display string, err error) *abi.Error {
	var errno syscall.Errno
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return notFoundError(req)
	case errors.As(err, &errno) && errno == syscall.ENOTDIR:
		return notFoundError(req)
	case errors.Is(err, fs.ErrPermission):
		return abi.Errorf(abi.PathDenied, "the operating system does not allow juju to read %s; choose another path or ask the owner to fix its permissions", abi.Quote(display))
	case errors.As(err, &errno) && errno == syscall.ELOOP:
		// The walk follows every link itself and counts them (loopError):
		// the names it hands the operating system were no links when it
		// looked, so a loop found now is a name replaced since.
		return changedError(display)
	case errors.As(err, &errno) && errno == syscall.ENAMETOOLONG:
		return abi.Errorf(abi.InvalidArgument, "%s is too long for the file system; use a shorter path", abi.Quote(req))
	case strings.Contains(err.Error(), "escapes"):
		// os.Root refused to leave the root: something was swapped for a
		// link that leads out while juju was looking.
		return abi.Errorf(abi.PathDenied, "%s changed into a path that leads outside the workspace while juju was opening it; it cannot be read", abi.Quote(req))
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // drop the host path
	}
	return abi.Errorf(abi.Internal, "%s could not be read (%v); try again or choose another path", abi.Quote(display), err)
}
