package eval

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"unicode/utf8"
)

// fileSuffix names the companion of an environment variable that holds
// the path of a file with the variable's value: TOKEN_FILE for TOKEN.
// Docker and Kubernetes secrets, and the agents of secret managers, mount
// secrets as files, so that they never appear in the process's
// environment (where /proc, crash reports and child processes see them).
const fileSuffix = "_FILE"

// lookupOrFile reads the variable name, or, when it is not set, the file
// that name_FILE names (a path relative to the working directory, as the
// platforms that mount such files mean it). One line break at the end of
// the file is not part of the value: editors and `echo` add one. Both set
// is an error, since one of them would be ignored without a word.
func lookupOrFile(lookup func(string) (string, bool), name string) (string, bool, error) {
	v, ok := lookup(name)
	path, fromFile := lookup(name + fileSuffix)
	switch {
	case ok && fromFile:
		return "", false, fmt.Errorf("both %s and %s%s are set; set only one of them (%s%s names a file holding the value)", name, name, fileSuffix, name, fileSuffix)
	case ok:
		return v, true, nil
	case !fromFile:
		return "", false, nil
	}
	b, err := readSecretFile(path)
	if err != nil {
		return "", false, fmt.Errorf("the environment variable %q is read from the file %s%s names, %s, which %s; fix the path or the file's permissions", name, name, fileSuffix, path, err)
	}
	return b, true, nil
}

// readSecretFile reads a secret's file. Errors say what is wrong without
// quoting the file's contents.
func readSecretFile(path string) (string, error) {
	if path == "" {
		return "", errors.New("is empty")
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", errors.New("does not exist")
		}
		return "", errors.New("cannot be read: " + pathErrorText(err))
	}
	defer f.Close()
	b, err := readCapped(f, path, path)
	if err != nil {
		var fe *FileError
		if errors.As(err, &fe) {
			return "", errors.New(fe.Reason)
		}
		return "", err
	}
	if !utf8.Valid(b) {
		return "", errors.New("is not UTF-8 text")
	}
	s := strings.TrimSuffix(string(b), "\n")
	return strings.TrimSuffix(s, "\r"), nil
}
