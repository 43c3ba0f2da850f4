package stream

import "fmt"

// Dedup is the state of a dedup within the watermark (Spark's
// dropDuplicatesWithinWatermark): per key, the expiry of its first row,
// which is that row's event time plus the delay. K is the generated key
// type.
//
// The rule is Spark's (StreamingDeduplicateWithinWatermarkExec, checked on
// 4.1.4 and 4.2.1). Its watermark starts at the epoch (0) and never
// decreases. Within a micro-batch:
//
//   - a row whose event time is <= the watermark is late: dropped (a row
//     whose event time is NULL never is);
//   - else a row whose key is held is a duplicate: dropped;
//   - else the row is passed on and its key held, expiring at its event
//     time plus the delay (a NULL event time counts as the epoch).
//
// At the end of the micro-batch the watermark advances (Advance) and every
// key whose expiry is <= the watermark is dropped: a later row of that key
// is passed on again.
//
// A flow's watermark (Tracker) is its inputs' greatest event time less the
// delay; with an allowed lateness L, the Spark targets declare the delay
// plus L on the read, so Dedup is given that delay (NewDedup's delay) and
// the lateness, and takes the flow's watermark less L as Spark's. Spark
// keeps its watermark in whole milliseconds (the greatest event time
// truncated to a millisecond, less the delay), so Dedup floors it to a
// multiple of the grain, the units in a millisecond.
type Dedup[K comparable] struct {
	delay, lateness int64
	grain           int64 // units per millisecond (1 for ms and s)
	wm              int64 // Spark's watermark, in units; 0 is the epoch
	expires         map[K]int64
	expiry          []expiryEntry[K] // one per held key, by at
	stats           DedupStats
}

// expiryEntry is a held key and the time after which it expires.
type expiryEntry[K comparable] struct {
	at  int64
	key K
}

func expiryLess[K comparable](a, b expiryEntry[K]) bool { return a.at < b.at }

// DedupStats counts what a Dedup saw.
type DedupStats struct {
	Rows       int64 // rows added, late ones included
	Late       int64 // dropped as late
	Duplicates int64 // dropped while their key was held
	Passed     int64 // passed on
	Evicted    int64 // keys dropped by the watermark
	Held       int   // keys held now
}

// Seen is what Dedup.Add made of a row.
type Seen uint8

const (
	// First: the row is the first of its key while the key is not held;
	// pass it on.
	First Seen = iota
	// Duplicate: its key is held; drop it.
	Duplicate
	// Late: its event time is at or below the watermark; drop and count it.
	Late
)

// NewDedup returns empty dedup state; delay and allowedLateness are in
// units of the event time (delay is the watermark's delay plus the allowed
// lateness, as the Spark targets declare it), grain the units in a
// millisecond (1 when a unit is a millisecond or more).
func NewDedup[K comparable](delay, allowedLateness, grain int64) (*Dedup[K], error) {
	if delay < 0 || allowedLateness < 0 || grain < 1 {
		return nil, fmt.Errorf("dedup within the watermark: delay %d, allowed lateness %d or grain %d out of range", delay, allowedLateness, grain)
	}
	return &Dedup[K]{delay: delay, lateness: allowedLateness, grain: grain, expires: map[K]int64{}}, nil
}

// Add classifies one row of key at event time t (ok false: t is NULL) and,
// when it is the first of its key, holds the key.
func (d *Dedup[K]) Add(key K, t int64, ok bool) Seen {
	d.stats.Rows++
	if ok && t <= d.wm {
		d.stats.Late++
		return Late
	}
	if _, held := d.expires[key]; held {
		d.stats.Duplicates++
		return Duplicate
	}
	if !ok {
		t = 0 // Spark reads a NULL event time as the epoch
	}
	d.hold(key, satAdd(t, d.delay))
	d.stats.Passed++
	return First
}

// hold keeps key until the watermark reaches at.
func (d *Dedup[K]) hold(key K, at int64) {
	d.expires[key] = at
	heapPush(&d.expiry, expiryEntry[K]{at: at, key: key}, expiryLess[K])
}

// Advance ends a micro-batch with the flow's watermark (ok false: it has
// none yet) and drops the keys whose expiry it reached.
func (d *Dedup[K]) Advance(wm int64, ok bool) {
	if ok {
		d.wm = max(d.wm, floorGrain(satSub(wm, d.lateness), d.grain))
	}
	for len(d.expiry) > 0 && d.expiry[0].at <= d.wm {
		e := heapPop(&d.expiry, expiryLess[K])
		delete(d.expires, e.key)
		d.stats.Evicted++
	}
}

// Len is the number of keys held.
func (d *Dedup[K]) Len() int { return len(d.expires) }

// Stats returns the counters.
func (d *Dedup[K]) Stats() DedupStats {
	s := d.stats
	s.Held = len(d.expires)
	return s
}

// DedupSnapshot is a Dedup's contents between micro-batches, for a
// checkpoint: Spark's watermark and the held keys with their expiry, by
// expiry.
type DedupSnapshot[K comparable] struct {
	WM    int64         `json:"wm"`
	Stats DedupStats    `json:"stats"`
	Keys  []DedupKey[K] `json:"keys"`
}

// DedupKey is one held key of a DedupSnapshot.
type DedupKey[K comparable] struct {
	Key     K     `json:"key"`
	Expires int64 `json:"expires"`
}

// Snapshot returns the state; call it after Advance.
func (d *Dedup[K]) Snapshot() DedupSnapshot[K] {
	s := DedupSnapshot[K]{WM: d.wm, Stats: d.Stats()}
	for _, e := range d.expiry {
		s.Keys = append(s.Keys, DedupKey[K]{Key: e.key, Expires: e.at})
	}
	// the heap's order depends on the order of the pushes: sort by expiry
	// (stable, so that equal expiries keep the heap's order)
	sortStable(s.Keys, func(a, b DedupKey[K]) bool { return a.Expires < b.Expires })
	return s
}

// Restore loads a snapshot into empty dedup state of the same delay.
func (d *Dedup[K]) Restore(s DedupSnapshot[K]) error {
	if len(d.expires) != 0 || d.stats.Rows != 0 {
		return fmt.Errorf("restore into dedup state that is not empty")
	}
	d.wm, d.stats = s.WM, s.Stats
	for _, k := range s.Keys {
		if _, dup := d.expires[k.Key]; dup {
			return fmt.Errorf("dedup snapshot holds key %v twice", k.Key)
		}
		d.hold(k.Key, k.Expires)
	}
	d.stats.Held = 0
	return nil
}
