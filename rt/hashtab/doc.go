// Package hashtab holds the hash tables that generated code uses for group
// by and hash-join keys of one field: open addressing with linear probing,
// a power-of-two number of slots, grown by doubling past 7/8 full (Int)
// or 3/4 full (Strings, whose bigger slots and costlier compares make a
// long probe dearer).
//
// Each table maps a key to an int32 that the caller chooses (a group's or
// a bucket's index), with the lookups generated code needs and nothing
// else: Get, and Put of a key that Get did not find. Int is specialized to
// an integer key type (integers, dates, timestamps, durations, and floats by
// the bits of their normalized value), with the key stored in its slot;
// Strings stores each slot's hash beside its key, compares bytes only when
// the hashes agree, and never allocates to look a key up. An Int table
// keeps small non-negative keys (below a bound that grows with the keys it
// holds) out of its slots, in an array indexed by the key, which it makes
// as the keys arrive: no hashing nor probing for the ids most group-bys and
// joins on integers have. A complete Int table whose keys span a short
// range (a dimension's ids) has a Dense form, an array indexed by the key
// minus the smallest, for a join's probes.
//
// The tables do no memory accounting of their own: generated code accounts
// each kept row, including its table slot, against --memory-limit
// (etl.FlowContext.Grow; codegen's memRowOverhead is the estimate of a
// slot). They are not safe for concurrent writes: each parallel worker
// builds its own, and a join's build side is read-only while probes run.
//
// hashtab must import nothing from the rest of this module.
package hashtab
