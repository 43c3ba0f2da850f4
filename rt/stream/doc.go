// Package stream is the streaming runtime: the watched-folder source, the
// watermark tracker, window state, interval-join state, bounded edges and
// micro-batch triggers that generated streaming flows call.
//
// (The full integration notes are written below as the pieces land.)
package stream
