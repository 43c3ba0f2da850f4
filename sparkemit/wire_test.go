package sparkemit

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nordisk/thund/frontend/dsl"
	"github.com/nordisk/thund/passes"
)

// The field-number table below is transcribed from /work/shared/spark-wire.md
// (Spark's own protos at v4.1.0) and, for the 4.2-only rows, from pyspark
// 4.2.1's pipelines.proto descriptors, not from this package's .proto
// files, so that a wrong number in those files fails here (TestSparkWire,
// in the Spark lane, checks the files against the releases themselves). Relations and expressions spark-wire.md does not tabulate
// (SetOperation, Deduplicate, SubqueryAlias, Offset, Range, WithWatermark,
// Cast, Decimal, DataType) come from relations.proto / expressions.proto /
// types.proto as read in apache/spark's tree.

type wt = protowire.Type

const (
	varint = protowire.VarintType
	lenT   = protowire.BytesType
	fix64  = protowire.Fixed64Type
)

// wireField is one field: its wire type, the message it holds (for LEN
// fields that are messages), and whether it is 4.2-only.
type wireField struct {
	name  string
	typ   wt
	msg   string
	only2 bool
}

func f(name string, typ wt) wireField { return wireField{name: name, typ: typ} }
func m(name, msg string) wireField    { return wireField{name: name, typ: lenT, msg: msg} }
func m42(name, msg string) wireField  { return wireField{name: name, typ: lenT, msg: msg, only2: true} }
func mapOf(name string) wireField     { return wireField{name: name, typ: lenT, msg: "MapEntry"} }
func rel(name string) wireField       { return m(name, "Relation") }
func ex(name string) wireField        { return m(name, "Expression") }

var wire = map[string]map[protowire.Number]wireField{
	"ExecutePlanRequest": {1: f("session_id", lenT), 2: m("user_context", "UserContext"), 3: m("plan", "Plan"),
		4: f("client_type", lenT), 6: f("operation_id", lenT), 7: f("tags", lenT), 8: f("client_observed_server_side_session_id", lenT)},
	"UserContext": {1: f("user_id", lenT), 2: f("user_name", lenT)},
	"Plan":        {1: rel("root"), 2: m("command", "Command")},
	"Command":     {19: m("pipeline_command", "PipelineCommand")},
	"PipelineCommand": {1: m("create_dataflow_graph", "CreateDataflowGraph"), 2: m("define_output", "DefineOutput"),
		3: m("define_flow", "DefineFlow"), 4: m("drop_dataflow_graph", "DropDataflowGraph"), 5: m("start_run", "StartRun"),
		6: m("define_sql_graph_elements", "DefineSqlGraphElements"), 9: m42("execute_output_flows", "ExecuteOutputFlows")},
	"CreateDataflowGraph": {1: f("default_catalog", lenT), 2: f("default_database", lenT), 5: mapOf("sql_conf")},
	"DropDataflowGraph":   {1: f("dataflow_graph_id", lenT)},
	"DefineOutput": {1: f("dataflow_graph_id", lenT), 2: f("output_name", lenT), 3: f("output_type", varint), 4: f("comment", lenT),
		5: m("source_code_location", "SourceCodeLocation"), 6: m("table_details", "TableDetails"), 7: m("sink_details", "SinkDetails")},
	"TableDetails": {1: mapOf("table_properties"), 2: f("partition_cols", lenT), 3: f("format", lenT), 5: f("schema_string", lenT), 6: f("clustering_columns", lenT)},
	"SinkDetails":  {1: mapOf("options"), 2: f("format", lenT)},
	"DefineFlow": {1: f("dataflow_graph_id", lenT), 2: f("flow_name", lenT), 3: f("target_dataset_name", lenT), 4: mapOf("sql_conf"),
		5: f("client_id", lenT), 6: m("source_code_location", "SourceCodeLocation"), 7: m("relation_flow_details", "WriteRelationFlowDetails"),
		8: f("once", varint), 10: m42("auto_cdc_flow_details", "AutoCdcFlowDetails")},
	"WriteRelationFlowDetails": {1: rel("relation")},
	"AutoCdcFlowDetails": {1: f("source", lenT), 2: ex("keys"), 3: ex("sequence_by"),
		6: ex("apply_as_deletes"), 7: ex("apply_as_truncates"), 8: ex("column_list"), 9: ex("except_column_list"),
		10: f("stored_as_scd_type", varint), 14: ex("ignore_null_updates_column_list"), 15: ex("ignore_null_updates_except_column_list")},
	"StartRun": {1: f("dataflow_graph_id", lenT), 2: f("full_refresh_selection", lenT), 3: f("full_refresh_all", varint),
		4: f("refresh_selection", lenT), 5: f("dry", varint), 6: f("storage", lenT)},
	"DefineSqlGraphElements": {1: f("dataflow_graph_id", lenT), 2: f("sql_file_path", lenT), 3: f("sql_text", lenT)},
	"SourceCodeLocation":     {1: f("file_name", lenT), 2: f("line_number", varint), 3: f("definition_path", lenT)},
	"MapEntry":               {1: f("key", lenT), 2: f("value", lenT)},

	"Relation": {1: m("common", "RelationCommon"), 2: m("read", "Read"), 3: m("project", "Project"), 4: m("filter", "Filter"),
		5: m("join", "Join"), 6: m("set_op", "SetOperation"), 7: m("sort", "Sort"), 8: m("limit", "Limit"), 9: m("aggregate", "Aggregate"),
		13: m("offset", "Offset"), 14: m("deduplicate", "Deduplicate"), 15: m("range", "Range"), 16: m("subquery_alias", "SubqueryAlias"),
		33: m("with_watermark", "WithWatermark"), 41: m("with_relations", "WithRelations")},
	"RelationCommon": {1: f("source_info", lenT), 2: f("plan_id", varint)},
	"Read":           {1: m("named_table", "NamedTable"), 2: m("data_source", "DataSource"), 3: f("is_streaming", varint)},
	"NamedTable":     {1: f("unparsed_identifier", lenT), 2: mapOf("options")},
	"DataSource":     {1: f("format", lenT), 2: f("schema", lenT), 3: mapOf("options"), 4: f("paths", lenT), 5: f("predicates", lenT)},
	"Project":        {1: rel("input"), 3: ex("expressions")},
	"Filter":         {1: rel("input"), 2: ex("condition")},
	"Join":           {1: rel("left"), 2: rel("right"), 3: ex("join_condition"), 4: f("join_type", varint), 5: f("using_columns", lenT)},
	"SetOperation":   {1: rel("left_input"), 2: rel("right_input"), 3: f("set_op_type", varint), 4: f("is_all", varint), 5: f("by_name", varint)},
	"Sort":           {1: rel("input"), 2: m("order", "SortOrder"), 3: f("is_global", varint)},
	"Limit":          {1: rel("input"), 2: f("limit", varint)},
	"Offset":         {1: rel("input"), 2: f("offset", varint)},
	"Aggregate":      {1: rel("input"), 2: f("group_type", varint), 3: ex("grouping_expressions"), 4: ex("aggregate_expressions")},
	"Deduplicate":    {1: rel("input"), 2: f("column_names", lenT), 3: f("all_columns_as_keys", varint), 4: f("within_watermark", varint)},
	"Range":          {1: f("start", varint), 2: f("end", varint), 3: f("step", varint)},
	"SubqueryAlias":  {1: rel("input"), 2: f("alias", lenT), 3: f("qualifier", lenT)},
	"WithWatermark":  {1: rel("input"), 2: f("event_time", lenT), 3: f("delay_threshold", lenT)},
	"WithRelations":  {1: rel("root"), 2: rel("references")},

	"Expression": {1: m("literal", "Literal"), 2: m("unresolved_attribute", "UnresolvedAttribute"), 3: m("unresolved_function", "UnresolvedFunction"),
		4: m("expression_string", "ExpressionString"), 5: m("unresolved_star", "UnresolvedStar"), 6: m("alias", "Alias"), 7: m("cast", "Cast"),
		9: m("sort_order", "SortOrder"), 11: m("window", "Window"), 21: m("subquery_expression", "SubqueryExpression")},
	// window functions
	"Window":              {1: ex("window_function"), 2: ex("partition_spec"), 3: m("order_spec", "SortOrder"), 4: m("frame_spec", "WindowFrame")},
	"WindowFrame":         {1: f("frame_type", varint), 2: m("lower", "FrameBoundary"), 3: m("upper", "FrameBoundary")},
	"FrameBoundary":       {1: f("current_row", varint), 2: f("unbounded", varint), 3: ex("value")},
	"SubqueryExpression":  {1: f("plan_id", varint), 2: f("subquery_type", varint), 4: ex("in_subquery_values")},
	"SortOrder":           {1: ex("child"), 2: f("direction", varint), 3: f("null_ordering", varint)},
	"UnresolvedAttribute": {1: f("unparsed_identifier", lenT), 2: f("plan_id", varint)},
	"UnresolvedFunction":  {1: f("function_name", lenT), 2: ex("arguments"), 3: f("is_distinct", varint), 4: f("is_user_defined_function", varint)},
	"ExpressionString":    {1: f("expression", lenT)},
	"UnresolvedStar":      {1: f("unparsed_target", lenT), 2: f("plan_id", varint)},
	"Alias":               {1: ex("expr"), 2: f("name", lenT), 3: f("metadata", lenT)},
	"Cast":                {1: ex("expr"), 2: m("type", "DataType"), 3: f("type_str", lenT), 4: f("eval_mode", varint)},
	"Literal": {1: m("null", "DataType"), 2: f("binary", lenT), 3: f("boolean", varint), 4: f("byte", varint), 5: f("short", varint),
		6: f("integer", varint), 7: f("long", varint), 10: f("float", protowire.Fixed32Type), 11: f("double", fix64), 12: m("decimal", "Decimal"),
		13: f("string", lenT), 16: f("date", varint), 17: f("timestamp", varint), 18: f("timestamp_ntz", varint),
		19: m("calendar_interval", "CalendarInterval"), 20: f("year_month_interval", varint), 21: f("day_time_interval", varint)},
	"Decimal":          {1: f("value", lenT), 2: f("precision", varint), 3: f("scale", varint)},
	"CalendarInterval": {1: f("months", varint), 2: f("days", varint), 3: f("microseconds", varint)},
	"DataType":         {1: m("null", "NULL")},
	"NULL":             {1: f("type_variation_reference", varint)},
}

// walk checks every field of a message's bytes against the table, and
// returns the 4.2-only fields it met ("DefineFlow.10").
func walk(t *testing.T, where, msg string, b []byte) (only42 []string) {
	t.Helper()
	fields, ok := wire[msg]
	if !ok {
		t.Fatalf("%s: no table for message %s", where, msg)
	}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("%s: bad tag: %v", where, protowire.ParseError(n))
		}
		b = b[n:]
		fd, known := fields[num]
		if !known {
			t.Errorf("%s: %s has no field %d in Spark's protocol", where, msg, num)
		} else if fd.typ != typ {
			t.Errorf("%s: %s.%s (%d) has wire type %d, Spark's is %d", where, msg, fd.name, num, typ, fd.typ)
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			t.Fatalf("%s: bad value of field %d: %v", where, num, protowire.ParseError(n))
		}
		if known && fd.only2 {
			only42 = append(only42, fmt.Sprintf("%s.%d", msg, num))
		}
		if known && fd.msg != "" && typ == lenT {
			inner, _ := protowire.ConsumeBytes(b)
			only42 = append(only42, walk(t, where+"/"+fd.name, fd.msg, inner)...)
		}
		b = b[n:]
	}
	return only42
}

// walkBundle walks every length-delimited request of a bundle's bytes.
func walkBundle(t *testing.T, data []byte) (n int, only42 []string) {
	t.Helper()
	for len(data) > 0 {
		size, k := protowire.ConsumeVarint(data)
		if k < 0 || uint64(len(data)-k) < size {
			t.Fatalf("request %d: bad length prefix", n+1)
		}
		only42 = append(only42, walk(t, fmt.Sprintf("request %d", n+1), "ExecutePlanRequest", data[k:k+int(size)])...)
		data = data[k+int(size):]
		n++
	}
	return n, only42
}

func compileFile(t *testing.T, path string, target passes.Target) *passes.Unit {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return compileSrc(t, path, string(src), target)
}

func compileSrc(t *testing.T, name, src string, target passes.Target) *passes.Unit {
	t.Helper()
	p, diags := dsl.Parse(name, []byte(src))
	if diags.HasErrors() {
		t.Fatalf("%s: %v", name, diags.Err())
	}
	u, err := passes.Run(p, passes.Options{Target: target})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return u
}

func emitBytes(t *testing.T, u *passes.Unit, opts Options) (Bundle, []byte) {
	t.Helper()
	b, _, err := Emit(u, opts)
	if err != nil {
		t.Fatalf("Emit: %v", err)
	}
	data, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b, data
}

// bundles are the Spark-clean pipelines the wire tests lower.
var bundles = []struct {
	file    string
	targets []passes.Target
}{
	{"testdata/windows.thund", []passes.Target{passes.Spark41, passes.Spark42}},
	{"testdata/cdc_clean.thund", []passes.Target{passes.Spark42}},
	{"testdata/subqueries.thund", []passes.Target{passes.Spark41, passes.Spark42}},
}

// TestWireMatchesSpark walks the raw bytes of every bundle against the
// independent table: every field number and wire type is Spark's.
func TestWireMatchesSpark(t *testing.T) {
	for _, bc := range bundles {
		for _, target := range bc.targets {
			t.Run(bc.file+"/"+string(target), func(t *testing.T) {
				u := compileFile(t, bc.file, target)
				b, data := emitBytes(t, u, Options{Storage: "file:///ckpt", FullRefresh: []string{"a"}, Refresh: []string{"b"}, Dry: true})
				n, only42 := walkBundle(t, data)
				if n != len(b.Requests) || n < 3 {
					t.Errorf("walked %d requests, the bundle has %d", n, len(b.Requests))
				}
				if target == passes.Spark41 && len(only42) > 0 {
					t.Errorf("a spark-4.1 bundle carries 4.2-only fields: %v", only42)
				}
			})
		}
	}
}

// TestNo42TagsIn41 checks the gate both ways: the 4.2 CDC bundle carries
// DefineFlow.auto_cdc_flow_details (10), which the walk detects, while the
// same pipeline is refused for 4.1, and the 4.1 bundles hold no 4.2 tag.
func TestNo42TagsIn41(t *testing.T) {
	u := compileFile(t, "testdata/cdc_clean.thund", passes.Spark42)
	_, data := emitBytes(t, u, Options{})
	_, only42 := walkBundle(t, data)
	if strings.Count(strings.Join(only42, " "), "DefineFlow.10") != 2 {
		t.Errorf("the 4.2 CDC bundle's 4.2-only fields: %v, want DefineFlow.10 twice", only42)
	}
	u41 := compileFile(t, "testdata/windows.thund", passes.Spark41)
	_, data41 := emitBytes(t, u41, Options{})
	if _, only := walkBundle(t, data41); len(only) != 0 {
		t.Errorf("4.1 bundle carries %v", only)
	}
}

// TestGoldenKeyBytes pins the first keys of a request's path to its
// pipeline command: ExecutePlanRequest.plan (3, LEN) = 0x1a, Plan.command
// (2, LEN) = 0x12, Command.pipeline_command (19, LEN) = 0x9a 0x01.
func TestGoldenKeyBytes(t *testing.T) {
	u := compileFile(t, "testdata/windows.thund", passes.Spark41)
	b, _ := emitBytes(t, u, Options{})
	for i, r := range b.Requests {
		raw, err := proto.MarshalOptions{Deterministic: true}.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		plan := fieldBytes(t, raw, 0x1a)
		command := fieldBytes(t, plan, 0x12)
		if !bytes.HasPrefix(command, []byte{0x9a, 0x01}) {
			t.Errorf("request %d: Plan.command starts % x, want 9a 01 (Command.pipeline_command)", i+1, command[:min(4, len(command))])
		}
	}
}

// fieldBytes returns the value of the LEN field whose one-byte key is key.
func fieldBytes(t *testing.T, b []byte, key byte) []byte {
	t.Helper()
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatal("bad tag")
		}
		start := b
		b = b[n:]
		if start[0] == key && n == 1 && typ == lenT {
			v, _ := protowire.ConsumeBytes(b)
			return v
		}
		b = b[protowire.ConsumeFieldValue(num, typ, b):]
	}
	t.Fatalf("no field with key byte %#x", key)
	return nil
}

// TestDecodesWithoutUnknownFields decodes every bundle with the generated
// types and checks no message anywhere kept unknown bytes.
func TestDecodesWithoutUnknownFields(t *testing.T) {
	for _, bc := range bundles {
		for _, target := range bc.targets {
			u := compileFile(t, bc.file, target)
			b, data := emitBytes(t, u, Options{Storage: "s3://b/p"})
			reqs, err := ReadBundle(data)
			if err != nil {
				t.Fatal(err)
			}
			if len(reqs) != len(b.Requests) {
				t.Fatalf("decoded %d requests, want %d", len(reqs), len(b.Requests))
			}
			for i, r := range reqs {
				noUnknown(t, fmt.Sprintf("%s %s request %d", bc.file, target, i+1), r.ProtoReflect())
				if !proto.Equal(r, b.Requests[i]) {
					t.Errorf("request %d does not round-trip", i+1)
				}
			}
			text, err := b.MarshalText()
			if err != nil {
				t.Fatal(err)
			}
			back, err := ReadBundle(text)
			if err != nil {
				t.Fatal(err)
			}
			for i := range back {
				if !proto.Equal(back[i], b.Requests[i]) {
					t.Errorf("text request %d does not round-trip", i+1)
				}
			}
		}
	}
}

func noUnknown(t *testing.T, where string, m protoreflect.Message) {
	if len(m.GetUnknown()) > 0 {
		t.Errorf("%s: %s has unknown fields % x", where, m.Descriptor().FullName(), m.GetUnknown())
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			for i := 0; i < v.List().Len(); i++ {
				noUnknown(t, where, v.List().Get(i).Message())
			}
		case fd.IsMap():
		case fd.Message() != nil:
			noUnknown(t, where, v.Message())
		}
		return true
	})
}

// TestDeterministic lowers the same input twice (maps included) and
// expects the same bytes, and a session id that is the pipeline's UUIDv5.
func TestDeterministic(t *testing.T) {
	for i := 0; i < 2; i++ {
		u1 := compileFile(t, "testdata/windows.thund", passes.Spark42)
		u2 := compileFile(t, "testdata/windows.thund", passes.Spark42)
		_, a := emitBytes(t, u1, Options{})
		_, b := emitBytes(t, u2, Options{})
		if !bytes.Equal(a, b) {
			t.Fatal("two lowerings of one pipeline differ")
		}
	}
	if SessionID("windows") == SessionID("windows2") || SessionID("windows") != SessionID("windows") {
		t.Error("session ids are not a function of the name")
	}
}
