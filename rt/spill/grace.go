package spill

import "fmt"

// Fanout is how many partition files a grace-hash operator writes at each
// level of spilling: a row goes to the file that fanBits bits of its key's
// hash pick, other bits at each level, so that a partition read back and
// spilled again splits.
const (
	Fanout   = 1 << fanBits
	fanBits  = 4
	MaxLevel = 8 // 16^8 partitions: past it, one key's rows alone pass the limit
)

// Grace is the spilled work of one grace-hash operator (a hash aggregate, a
// distinct): rows whose keys did not fit under --memory-limit go to the
// partition files of the current level (Writer); Next then reads them back
// one partition at a time, each into an empty table, and the rows of a
// partition that again does not fit go to the next level's files. Each key
// is in one partition at every level, so the operator finishes a partition
// before the next one. Not safe for concurrent use.
type Grace struct {
	op     string                  // the operator and its position, for errors
	create func() (*Writer, error) // a new spill file (FlowContext.SpillFile)
	level  int                     // of the files being written
	out    [Fanout]*Writer         // this level's files, nil until a row goes to one
	todo   []part                  // partitions not yet read back
	cur    *File                   // the partition being read back
}

// part is a partition written and not yet read back; its rows spill again
// at level.
type part struct {
	f     *File
	level int
}

// NewGrace starts the spilled work of op; create makes its files.
func NewGrace(op string, create func() (*Writer, error)) *Grace {
	return &Grace{op: op, create: create}
}

// Writer is the file of the current level for a row whose key hashes to h.
// Past MaxLevel it fails: the rows of a partition that splits no further
// do not fit.
func (g *Grace) Writer(h uint64) (*Writer, error) {
	if g.level >= MaxLevel {
		return nil, fmt.Errorf("%s needs more than --memory-limit even after %d levels of spilling to disk (one key's rows alone pass it): raise --memory-limit", g.op, MaxLevel)
	}
	i := h >> (fanBits * g.level) & (Fanout - 1)
	if g.out[i] == nil {
		w, err := g.create()
		if err != nil {
			return nil, err
		}
		g.out[i] = w
	}
	return g.out[i], nil
}

// Next finishes the files written at the current level, removes the
// partition read back last, and returns a reader of the next partition to
// read back, false when none is left. The partitions of the deepest level
// come first, so that few files wait on the disk.
func (g *Grace) Next() (*Reader, bool, error) {
	for i, w := range g.out {
		if w == nil {
			continue
		}
		g.out[i] = nil
		f, err := w.Finish()
		if err != nil {
			return nil, false, err
		}
		g.todo = append(g.todo, part{f, g.level + 1})
	}
	if g.cur != nil {
		if err := g.cur.Remove(); err != nil {
			return nil, false, err
		}
		g.cur = nil
	}
	if len(g.todo) == 0 {
		return nil, false, nil
	}
	p := g.todo[len(g.todo)-1]
	g.todo = g.todo[:len(g.todo)-1]
	g.cur, g.level = p.f, p.level
	r, err := p.f.Reader()
	if err != nil {
		return nil, false, err
	}
	return r, true, nil
}
