package stream

// Distinct is the accumulator of count(DISTINCT ...) in window state: the
// distinct values seen, in the order first seen. Items is what a snapshot
// stores (rt/pqstate has no maps); the index over it is rebuilt on first
// use after a restore, and is not stored.
type Distinct[K comparable] struct {
	Items []K
	index map[K]struct{} `pqstate:"-"`
}

// Add adds v; it reports whether v was new.
func (d *Distinct[K]) Add(v K) bool {
	if d.index == nil {
		d.index = make(map[K]struct{}, len(d.Items)+1)
		for _, x := range d.Items {
			d.index[x] = struct{}{}
		}
	}
	if _, dup := d.index[v]; dup {
		return false
	}
	d.index[v] = struct{}{}
	d.Items = append(d.Items, v)
	return true
}

// Len is the number of distinct values.
func (d *Distinct[K]) Len() int64 { return int64(len(d.Items)) }

// Merge adds o's values (sessions that merge).
func (d *Distinct[K]) Merge(o *Distinct[K]) {
	for _, x := range o.Items {
		d.Add(x)
	}
}
