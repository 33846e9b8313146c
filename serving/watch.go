package serving

// ReferencedFiles are the files besides the configuration's own that the
// served table was compiled from or reads: app pages and resource files.
// A watcher of the configuration watches them too.
func (i *Instance) ReferencedFiles() []string {
	var out []string
	for _, r := range i.srv.Table().Resources {
		if r.File != "" {
			out = append(out, r.File)
		}
	}
	return out
}
