package spill

// Grace is the spilled work of a grace-hash operator that has one input (a
// hash aggregate, a distinct), where a join pairs two (Pair): the rows
// whose keys did not fit under --memory-limit go to the current level's
// Partitions (Writer); Next then reads them back one partition at a time,
// each into an emptied table, and the rows of a partition that again does
// not fit go to the next level's. Each key is in one partition at every
// level, so the operator finishes a partition before the next. Not safe
// for concurrent use.
type Grace struct {
	// start makes a level's partitions (FlowContext.SpillPartitions,
	// which fails past MaxLevel naming the operator)
	start func(level int) (*Partitions, error)
	level int         // of the partitions being written
	out   *Partitions // nil until a row spills at this level
	todo  []*part     // partitions not yet read back
	cur   *File       // the partition being read back
}

// part is a partition written and not yet read back; its rows spill again
// at level.
type part struct {
	f     *File
	level int
}

// NewGrace starts the spilled work of an operator; start makes its
// partitions of a level.
func NewGrace(start func(level int) (*Partitions, error)) *Grace {
	return &Grace{start: start}
}

// Writer is the file of the current level for a row whose key's Hash is h.
func (g *Grace) Writer(h uint64) (*Writer, error) {
	if g.out == nil {
		p, err := g.start(g.level)
		if err != nil {
			return nil, err
		}
		g.out = p
	}
	return g.out.Of(h), nil
}

// Next finishes the files written at the current level, removes the
// partition read back last, and returns a reader of the next partition to
// read back, false when none is left. The partitions of the deepest level
// come first, so that few files wait on the disk.
func (g *Grace) Next() (*Reader, bool, error) {
	if g.out != nil {
		for _, w := range g.out.ws {
			f, err := w.Finish()
			if err != nil {
				return nil, false, err
			}
			if f.Len() == 0 {
				if err := f.Remove(); err != nil {
					return nil, false, err
				}
				continue
			}
			g.todo = append(g.todo, &part{f, g.level + 1})
		}
		g.out = nil
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
