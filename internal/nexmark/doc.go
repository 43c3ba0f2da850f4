// Package nexmark is a small deterministic Nexmark event generator: the
// Person, Auction and Bid streams of the Nexmark benchmark at the standard
// proportions 1:3:46, with bounded disorder of event times, reproducible from
// a seed. Write lays the events out as Parquet and/or CSV files in several
// parts per table, to be replayed as streams through a watched folder
// (examples/nexmark, the rt/stream tests and the benchmarks read them).
//
// The shapes follow the Nexmark model used by Flink and Beam (field names in
// snake_case; money in cents; date_time as timestamp(ms)), simplified where the
// benchmark does not depend on the detail: ids are sequential from 1000,
// bids pick a "hot" recent auction and bidder half and a quarter of the time,
// and the extra padding field is short.
//
// Disorder: event n's nominal time is FirstEventTime + n/EventsPerSecond; its
// date_time is the nominal time minus a uniform delay in [0, MaxDisorder], so
// no event is more than MaxDisorder older than one generated before it.
//
// It must not: depend on the compiler, or on anything but rt/format, rt/store
// and arrow-go. It is test and benchmark tooling, not part of the runtime.
package nexmark
