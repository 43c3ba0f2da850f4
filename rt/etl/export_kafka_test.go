//go:build kafka

package etl

import "github.com/nordisk/thund/rt/store"

// Test hooks for the Kafka sink's tests (package etl_test, which can import
// rt/kafka).

// SetTestKafkaCrash sets (nil: clears) the hook asked at each step of the
// Kafka sink's protocol whether the process dies there.
func SetTestKafkaCrash(f func(sink, point string) bool) { testKafkaCrash = f }

// SetTestWrapFS sets (nil: clears) the wrapper of the warehouse's store
// (store.NewFaulty to inject faults).
func SetTestWrapFS(f func(store.FS) store.FS) { testWrapFS = f }
