package spill

import (
	"cmp"
	"slices"
)

// Runs is the sorted runs of an external merge sort (an order by's or a
// window's rows past --memory-limit). Rows of a generated struct type T
// accumulate in memory; when they no longer fit, Write sorts them and
// writes them out as one run, and the caller reuses its memory. At the
// end Merge streams every run, and the rows still in memory as the last
// one, in order. Generated code supplies the comparison and the row's
// layout (put and get: the spills of its fields in order), so that the
// merge stays typed and nothing here knows a row.
//
// Ties keep input order: runs are written in input order, each sorted
// stably, and the merge breaks a tie by the run's number.
//
// A merge reads every run at once, each through a read buffer of 256 KiB,
// so the runs are at most MaxFanIn: the one written past that first merges
// all before it into one run (their bytes read and written once more).
type Runs[T any] struct {
	files  []*File
	cmp    func(a, b *T) int
	put    func(*Writer, *T)
	get    func(*Reader, *T)
	create func() (*Writer, error)
	fanIn  int
}

// MaxFanIn is how many runs a merge reads at once.
const MaxFanIn = 32

// NewRuns returns an empty set of runs of rows ordered by cmp, written
// with put to the files create starts and read back with get.
func NewRuns[T any](cmp func(a, b *T) int, put func(*Writer, *T), get func(*Reader, *T), create func() (*Writer, error)) *Runs[T] {
	return &Runs[T]{cmp: cmp, put: put, get: get, create: create, fanIn: MaxFanIn}
}

// Len is the number of runs written.
func (s *Runs[T]) Len() int { return len(s.files) }

// Write sorts rows stably by the comparison and writes them out as one
// run. It leaves rows as they were.
func (s *Runs[T]) Write(rows []T) error {
	if len(s.files) >= s.fanIn {
		if err := s.mergeAll(); err != nil {
			return err
		}
	}
	w, err := s.create()
	if err != nil {
		return err
	}
	idx := make([]int32, len(rows))
	for i := range idx {
		idx[i] = int32(i)
	}
	// stable: ties by position (pdqsort over the index, faster than a
	// stable sort's merges)
	slices.SortFunc(idx, func(a, b int32) int {
		if c := s.cmp(&rows[a], &rows[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for _, i := range idx {
		s.put(w, &rows[i])
	}
	f, err := w.Finish()
	if err != nil {
		return err
	}
	s.files = append(s.files, f)
	return nil
}

// mergeAll merges the runs written so far into one, the first.
func (s *Runs[T]) mergeAll() error {
	m, err := s.Merge(nil, nil)
	if err != nil {
		return err
	}
	w, err := s.create()
	if err != nil {
		return err
	}
	for r := m.Peek(); r != nil; r = m.Next() {
		s.put(w, r)
	}
	if err := m.Err(); err != nil {
		w.Abandon()
		return err
	}
	f, err := w.Finish()
	if err != nil {
		return err
	}
	s.files = []*File{f}
	return nil
}

// Merge starts the k-way merge of the runs written and, last, of rows in
// memory in the order idx gives them (both nil: none). The Merger owns the
// runs' files from then on and removes each once it is read.
func (s *Runs[T]) Merge(rows []T, idx []int32) (*Merger[T], error) {
	m := &Merger[T]{cmp: s.cmp}
	for i, f := range s.files {
		r, err := f.Reader()
		if err != nil {
			return nil, err
		}
		m.curs = append(m.curs, &cursor[T]{run: i, f: f, r: r, get: s.get})
	}
	s.files = nil
	if len(idx) > 0 {
		m.curs = append(m.curs, &cursor[T]{run: len(m.curs), mem: rows, idx: idx, at: -1})
	}
	for _, c := range m.curs {
		if m.advance(c) {
			m.heap = append(m.heap, c)
		}
	}
	if m.err != nil {
		return nil, m.err
	}
	for i := len(m.heap)/2 - 1; i >= 0; i-- {
		m.down(i)
	}
	return m, nil
}

// Merger streams the rows of sorted runs in order: a binary heap of the
// runs' current rows.
type Merger[T any] struct {
	cmp  func(a, b *T) int
	curs []*cursor[T]
	heap []*cursor[T]
	err  error

	batch []T
	iota  []int32
}

// cursor is one run's place in the merge: a file's reader and the row
// last read from it, or the rows in memory and the position in their
// order.
type cursor[T any] struct {
	run int // the run's number: ties go to the earlier run
	f   *File
	r   *Reader
	get func(*Reader, *T)
	row T

	mem []T
	idx []int32
	at  int
}

// current is the cursor's row.
func (c *cursor[T]) current() *T {
	if c.f != nil {
		return &c.row
	}
	return &c.mem[c.idx[c.at]]
}

// advance moves c to its next row and reports whether it has one; a run
// read to its end is removed.
func (m *Merger[T]) advance(c *cursor[T]) bool {
	if c.f == nil {
		c.at++
		return c.at < len(c.idx)
	}
	if c.r == nil {
		return false
	}
	if c.r.More() {
		c.get(c.r, &c.row)
		if err := c.r.Err(); err != nil {
			m.fail(err)
			return false
		}
		return true
	}
	if err := c.r.Err(); err != nil {
		m.fail(err)
	}
	if err := c.f.Remove(); err != nil {
		m.fail(err)
	}
	c.r = nil
	return false
}

func (m *Merger[T]) fail(err error) {
	if m.err == nil {
		m.err = err
	}
}

func (m *Merger[T]) less(a, b *cursor[T]) bool {
	if c := m.cmp(a.current(), b.current()); c != 0 {
		return c < 0
	}
	return a.run < b.run
}

func (m *Merger[T]) down(i int) {
	h := m.heap
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		j := l
		if r := l + 1; r < len(h) && m.less(h[r], h[l]) {
			j = r
		}
		if !m.less(h[j], h[i]) {
			return
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}

// Peek is the next row in order, nil at the end or after an error (Err).
// It stays valid until Next.
func (m *Merger[T]) Peek() *T {
	if m.err != nil || len(m.heap) == 0 {
		return nil
	}
	return m.heap[0].current()
}

// Next moves past the row Peek returns and returns the one after it (as
// Peek does).
func (m *Merger[T]) Next() *T {
	if m.err != nil || len(m.heap) == 0 {
		return nil
	}
	if !m.advance(m.heap[0]) {
		last := len(m.heap) - 1
		m.heap[0] = m.heap[last]
		m.heap = m.heap[:last]
	}
	if len(m.heap) > 0 {
		m.down(0)
	}
	return m.Peek()
}

// Err is the first error reading a run.
func (m *Merger[T]) Err() error { return m.err }

// Batch copies up to n next rows into a buffer of the Merger's and
// returns it with the identity order of its rows (an order by's replay
// loop reads rows in the order of an index); none at the end. The rows
// stay valid until the next Batch.
func (m *Merger[T]) Batch(n int) ([]T, []int32, error) {
	if len(m.iota) < n {
		m.iota = make([]int32, n)
		for i := range m.iota {
			m.iota[i] = int32(i)
		}
	}
	clear(m.batch)
	m.batch = m.batch[:0]
	for r := m.Peek(); r != nil && len(m.batch) < n; r = m.Next() {
		m.batch = append(m.batch, *r)
	}
	return m.batch, m.iota[:len(m.batch)], m.err
}
