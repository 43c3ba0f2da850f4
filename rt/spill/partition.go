package spill

import (
	"fmt"
	"hash/maphash"
)

// Grace hash partitioning: an operator whose hash table passes
// --memory-limit writes its rows to Fanout files by bits of their key's
// hash (Partitions), and then handles one partition at a time (Part). A
// partition that still does not fit is split again by the next bits of
// the same hash (its Level), at most MaxLevel times.

const (
	// FanoutBits is how many bits of a key's hash pick its partition at
	// one level.
	FanoutBits = 3
	// Fanout is the number of partitions a level splits its rows into.
	// Each has a Writer (a 256 KiB buffer) while it is written.
	Fanout = 1 << FanoutBits
	// MaxLevel bounds the splitting: past it, one partition holds more
	// than its operator may keep while its keys' hashes agree in every
	// bit used, in practice the rows of one key.
	MaxLevel = 5
)

// seed is the process's hash seed: both sides of a join hash their keys
// with it, so that equal keys land in the same partition.
var seed = maphash.MakeSeed()

// Hash is the hash of a key that picks its partition: equal keys (by Go's
// ==: generated code normalizes floats first) hash alike within the
// process.
func Hash[K comparable](key K) uint64 { return maphash.Comparable(seed, key) }

// Partitions is one level's fan-out of rows to Fanout spill files.
type Partitions struct {
	level int
	ws    [Fanout]*Writer
}

// NewPartitions starts the Fanout files of a level (0 for the first
// split), each from create.
func NewPartitions(level int, create func() (*Writer, error)) (*Partitions, error) {
	if level >= MaxLevel {
		return nil, fmt.Errorf("spill: partition level %d past %d", level, MaxLevel)
	}
	p := &Partitions{level: level}
	for i := range p.ws {
		w, err := create()
		if err != nil {
			return nil, err
		}
		p.ws[i] = w
	}
	return p, nil
}

// Of is the writer of the partition of a key whose Hash is h.
func (p *Partitions) Of(h uint64) *Writer {
	return p.ws[h>>(p.level*FanoutBits)&(Fanout-1)]
}

// Part is one partition of a grace hash join: its build rows' file and its
// probe rows' file, and the level its rows split at if they do not fit.
type Part struct {
	Build, Probe *File
	Level        int
}

// Remove deletes both files.
func (p Part) Remove() error {
	err := p.Build.Remove()
	if err2 := p.Probe.Remove(); err == nil {
		err = err2
	}
	return err
}

// Pair finishes the build and probe partitions of one level and appends
// them to parts, partition by partition; a partition with no build rows
// and no probe rows is removed rather than appended.
func Pair(parts []Part, build, probe *Partitions) ([]Part, error) {
	for i := range Fanout {
		b, err := build.ws[i].Finish()
		if err != nil {
			return parts, err
		}
		p, err := probe.ws[i].Finish()
		if err != nil {
			b.Remove()
			return parts, err
		}
		part := Part{Build: b, Probe: p, Level: build.level + 1}
		if b.Len() == 0 && p.Len() == 0 {
			if err := part.Remove(); err != nil {
				return parts, err
			}
			continue
		}
		parts = append(parts, part)
	}
	return parts, nil
}
