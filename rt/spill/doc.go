// Package spill is where a run's operators put what does not fit under
// --memory-limit: local files, written once and read back in order, in a
// folder of the process's own that nothing else uses.
//
// An Area is the spill root of one machine (default the system's temporary
// folder, thund-spill/ under it). A process's first spill makes a folder
// in it, named after the process, and holds an exclusive advisory lock
// (flock) on a file inside it for as long as the process lives. The folder
// is removed when the run ends, on success and on failure (Area.Close);
// after a kill -9 the kernel drops the lock, and the next Area opened on
// the same root (the next run on this machine) removes every folder whose
// lock it can take (Sweep). Where flock does not exist, folders are never
// taken from a live process: Sweep then removes none.
//
// A File is written through a Writer, whose Put methods append values in
// a fixed little-endian layout (strings and byte slices length-prefixed),
// and read back through a Reader with the matching Get methods. Generated
// code spells the layout of its rows with them; the package knows nothing
// of the rows. Every byte written is counted (Area.Bytes), for the event
// log.
package spill
