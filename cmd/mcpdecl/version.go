package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version and commit are set by release builds:
//
//	go build -ldflags "-X main.version=v1.2.3 -X main.commit=0123abc" ./cmd/mcpdecl
//
// Without them the module version and the VCS revision Go records in the
// binary (go build in a git checkout) are shown.
var (
	version = ""
	commit  = ""
)

type versionCmd struct{}

// supportedRevisions are the MCP protocol revisions mcpdecl serves.
var supportedRevisions = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}

func (versionCmd) Run(s streams) error {
	fmt.Fprintf(s.out, "mcpdecl %s (commit %s, %s)\nMCP revisions: %v\n", buildVersion(), buildCommit(), runtime.Version(), supportedRevisions)
	return nil
}

func buildVersion() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}

// buildCommit is the commit set at build time, else the revision Go
// stamped (with "-dirty" for uncommitted changes), else "unknown".
func buildCommit() string {
	if commit != "" {
		return commit
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "unknown"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
}
