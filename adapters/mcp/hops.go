package mcpadapter

import (
	"crypto/rand"
	"fmt"
	"slices"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// instanceID names this process in the hop lists of the calls it sends
// (mcp.MetaHops): random, so that two processes of one configuration
// fronting each other are told apart.
var instanceID = "mcpdecl-" + rand.Text()

// refuseLoop refuses a call whose hop list (what the call that runs it
// arrived with) already names this process, or is as long as the backend
// allows: the call would come back here, or wander too far.
func (b *Backend) refuseLoop(hops []string) error {
	if slices.Contains(hops, instanceID) {
		return &adapter.CallError{Message: fmt.Sprintf(
			"The call was refused: it would call the MCP server of backend %q, which leads back to this server (it arrived here through %d MCP servers, this one among them). Two configurations front each other's tools in a loop; change one so that the chain ends.",
			b.Name, len(hops))}
	}
	if len(hops) >= b.MaxHops {
		return &adapter.CallError{Message: fmt.Sprintf(
			"The call was refused: it has already passed through %d MCP servers, the most backend %q passes a call on from (max_hops).",
			len(hops), b.Name)}
	}
	return nil
}

// hopsAfter is the hop list a call sends: the one it arrived with, and
// this process.
func hopsAfter(hops []string) []string {
	return append(slices.Clip(hops), instanceID)
}
