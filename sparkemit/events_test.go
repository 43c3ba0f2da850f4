package sparkemit

import "testing"

// TestParseEvent: the messages of real 4.1.4 and 4.2.1 servers (the
// lane's runs print them).
func TestParseEvent(t *testing.T) {
	for _, c := range []struct {
		msg   string
		want  EventState
		parse bool
	}{
		{"Flow spark_catalog.default.clean_sales is QUEUED.", EventState{"spark_catalog.default.clean_sales", "QUEUED"}, true},
		{"Flow spark_catalog.default.clean_sales has COMPLETED.", EventState{"spark_catalog.default.clean_sales", "COMPLETED"}, true},
		{"Flow 'spark_catalog.lane.enriched' has FAILED.", EventState{"spark_catalog.lane.enriched", "FAILED"}, true},
		{"Flow 'spark_catalog.lane.revenue' SKIPPED due to upstream failure(s).", EventState{"spark_catalog.lane.revenue", "SKIPPED"}, true},
		{"Run is COMPLETED.", EventState{"", "COMPLETED"}, true},
		{"Run has FAILED.", EventState{"", "FAILED"}, true},
		{"Starting run.", EventState{}, false},
	} {
		got, ok := ParseEvent(c.msg)
		if ok != c.parse || got != c.want {
			t.Errorf("ParseEvent(%q) = %+v, %v; want %+v, %v", c.msg, got, ok, c.want, c.parse)
		}
	}
	if got := ErrorClass("Internal: [TABLE_OR_VIEW_NOT_FOUND] The table or view `bid` cannot be found."); got != "TABLE_OR_VIEW_NOT_FOUND" {
		t.Errorf("ErrorClass = %q", got)
	}
	if got := ErrorClass("[INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE] ..."); got != "INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE" {
		t.Errorf("ErrorClass = %q", got)
	}
}
