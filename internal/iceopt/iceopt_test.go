package iceopt

import (
	"strings"
	"testing"
)

func TestCheckValue(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		stream      bool
		err         string // "" for none
	}{
		{SnapshotID, "12", false, ""},
		{SnapshotID, " 12 ", false, ""},
		{SnapshotID, "x", false, `want an integer, got "x"`},
		{SnapshotID, "12", true, "is a time travel"},
		{AsOfTimestamp, "1700000000000", false, ""},
		{AsOfTimestamp, "-1", false, "want milliseconds since 1970-01-01 00:00:00 UTC"},
		{SkipOverwrite, "TRUE", true, ""},
		{SkipDelete, "false", true, ""},
		{SkipDelete, "yes", true, `want false or true, got "yes"`},
		{SkipDelete, "true", false, "applies to stream reads only"},
		{NonAppend, "Recompute", true, ""},
		{NonAppend, "drop", true, `want fail, skip or recompute, got "drop"`},
	} {
		o, ok := Lookup(strings.ToUpper(tc.name))
		if !ok || o.Name != tc.name {
			t.Fatalf("Lookup(%q) = %v, %v", strings.ToUpper(tc.name), o.Name, ok)
		}
		err := CheckValue(o, tc.value, tc.stream)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s = %q (stream %v): %v", tc.name, tc.value, tc.stream, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s = %q (stream %v): %v, want an error containing %q", tc.name, tc.value, tc.stream, err, tc.err)
		}
	}
	if _, ok := Lookup("branch"); ok || !SparkOnly("Branch") || SparkOnly("colour") {
		t.Error("Spark's branch option is not told from an unknown one")
	}
	if n := Int(" 42 "); n != 42 {
		t.Errorf("Int = %d", n)
	}
	for _, o := range Options {
		if o.Native && (len(o.Values) == 0 || o.Values[0] != NonAppendFail) {
			t.Errorf("native-only option %s: its first value must be the default Spark behaves as", o.Name)
		}
	}
}
