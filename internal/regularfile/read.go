// Package regularfile reads the files an operator's configuration or
// flags name for the server itself (an SQLite init script, a check
// script, a CA bundle, the state-key file, a test's recording), refusing
// anything but a regular file. Opening a named pipe waits for a writer,
// so a path that became one would hang the start, or a reload on SIGHUP,
// forever; a device may never end.
package regularfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular completes the message of a path that is not a regular
// file.
var ErrNotRegular = errors.New("is not a regular file (a named pipe, socket, device or folder); name a regular file")

// Read reads the regular file at path whole. It opens the path without
// blocking and checks what it opened, so a named pipe is refused at once;
// its errors are *fs.PathError.
func Read(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrNotRegular}
	}
	return io.ReadAll(f)
}
