package regularfile

import (
	"io/fs"
	"os"
	"syscall"
)

// Open opens the regular file at path for reading, refusing at once (as
// Read does) anything else; the caller reads and closes it.
func Open(path string) (*os.File, error) {
	return checked(os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0))
}

// OpenIn is Open for a path inside root: a name that leaves root (by
// "..", an absolute path or a symbolic link pointing out) is refused by
// os.Root before anything outside is opened.
func OpenIn(root *os.Root, name string) (*os.File, error) {
	return checked(root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0))
}

func checked(f *os.File, err error) (*os.File, error) {
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: f.Name(), Err: ErrNotRegular}
	}
	return f, nil
}
