// Package limits keeps token buckets: a bucket holds up to burst tokens,
// refills at a rate, and a call takes one token or is refused with the
// time until one is there. Buckets are named by keys the caller builds
// (a limit's name and its scope: a caller, a tool, the server); a Store
// keeps them in this process (Memory) or in Redis (shared by replicas,
// one Lua script per take so that a take is atomic, keys expiring when
// their bucket would be full again).
//
// It knows nothing of mcpdecl: the server decides what a key means.
package limits
