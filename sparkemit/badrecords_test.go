package sparkemit

import (
	"testing"

	"github.com/nordisk/thund/ir"
)

// TestReaderOptionsBadRecords: mode (upper-cased; PERMISSIVE unless given,
// for CSV spelled out) and columnNameOfCorruptRecord reach Spark's CSV and
// JSON readers under Spark's names.
func TestReaderOptionsBadRecords(t *testing.T) {
	for _, c := range []struct {
		f              ir.FileFormat
		kvs            []ir.KV
		mode, corrupt  string
		hasMode, hasCR bool
	}{
		{ir.FormatCSV, nil, "PERMISSIVE", "", true, false},
		{ir.FormatCSV, []ir.KV{{Key: "Mode", Value: "dropMalformed"}, {Key: "columnnameofcorruptrecord", Value: "bad"}}, "DROPMALFORMED", "bad", true, true},
		{ir.FormatJSONL, nil, "", "", false, false},
		{ir.FormatJSONL, []ir.KV{{Key: "MODE", Value: "failfast"}, {Key: "columnNameOfCorruptRecord", Value: "raw"}}, "FAILFAST", "raw", true, true},
	} {
		out, _, refusal := readerOptions(c.f, c.kvs)
		if refusal != "" {
			t.Errorf("%v: refused: %s", c.kvs, refusal)
			continue
		}
		m, hasMode := out["mode"]
		cr, hasCR := out["columnNameOfCorruptRecord"]
		if m != c.mode || hasMode != c.hasMode || cr != c.corrupt || hasCR != c.hasCR {
			t.Errorf("%s %v: options %v", c.f, c.kvs, out)
		}
	}
}
