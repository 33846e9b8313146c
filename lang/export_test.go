package lang

// SetLeanChunkSize sets the size of a lean load's pieces, for tests that
// cut small files into pieces; the returned func puts it back.
func SetLeanChunkSize(n int) func() {
	old := leanChunkSize
	leanChunkSize = n
	return func() { leanChunkSize = old }
}
