package shelladapter

import "path/filepath"

// shownProgram is a program as the model may see it: an absolute path is
// the server's (the server log has it), so only its name is shown.
func shownProgram(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Base(p)
	}
	return p
}
