//go:build spark

package sparkemit

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/nordisk/thund/internal/testenv"
	_ "github.com/nordisk/thund/sparkemit/connectpb"
)

// dumpDescriptors prints, as JSON, every message and enum of pyspark's
// Spark Connect protos: full name to fields (name to number, kind,
// cardinality and message or enum type) or enum values (name to number).
const dumpDescriptors = `
import json, importlib
out = {}
def msg(d):
    fields = {}
    for f in d.fields:
        rep = getattr(f, "is_repeated", None)
        if rep is None:
            rep = f.label == 3
        t = f.message_type.full_name if f.message_type else (f.enum_type.full_name if f.enum_type else "")
        fields[f.name] = {"number": f.number, "type": f.type, "repeated": bool(rep), "ref": t}
    out[d.full_name] = {"fields": fields}
    for n in d.nested_types:
        msg(n)
    for e in d.enum_types:
        enum(e)
def enum(e):
    out[e.full_name] = {"values": {v.name: v.number for v in e.values}}
for m in ["base", "commands", "common", "expressions", "pipelines", "relations", "types"]:
    fd = importlib.import_module("pyspark.sql.connect.proto." + m + "_pb2").DESCRIPTOR
    for d in fd.message_types_by_name.values():
        msg(d)
    for e in fd.enum_types_by_name.values():
        enum(e)
print(json.dumps(out))
`

type pyField struct {
	Number   int32  `json:"number"`
	Type     int    `json:"type"` // FieldDescriptor.TYPE_*, the same numbers as descriptorpb's
	Repeated bool   `json:"repeated"`
	Ref      string `json:"ref"`
}

type pyDesc struct {
	Fields map[string]pyField `json:"fields"`
	Values map[string]int32   `json:"values"`
}

// only42 are the declarations of the subset that Spark has only from 4.2
// on (see proto/spark/connect/README.md): a 4.1 server's descriptors lack
// them.
var only42 = []string{
	"spark.connect.PipelineCommand.execute_output_flows",
	"spark.connect.PipelineCommand.ExecuteOutputFlows",
	"spark.connect.PipelineCommand.DefineFlow.auto_cdc_flow_details",
	"spark.connect.PipelineCommand.DefineFlow.AutoCdcFlowDetails",
	"spark.connect.PipelineCommand.DefineFlow.SCDType",
}

// known are declarations that differ from a pinned release's descriptors
// and are being reworked elsewhere: a difference under one of them is
// logged, not failed. Remove an entry once its declarations match.
var known = map[string]string{
	"spark.connect.PipelineCommand.DefineFlow.AutoCdcFlowDetails": "its fields where (4), ignore_null_updates (5), track_history_column_list (11) and track_history_except_column_list (12) are not in pyspark 4.2.1, which has ignore_null_updates_column_list (14) and ignore_null_updates_except_column_list (15)",
	"spark.connect.PipelineCommand.DefineFlow.SCDType":            "pyspark 4.2.1 has no SCD_TYPE_2",
}

// knownDifference returns the reason a difference under name is known.
func knownDifference(name string) (string, bool) {
	for p, why := range known {
		if name == p || strings.HasPrefix(name, p+".") {
			return why, true
		}
	}
	return "", false
}

func is42Only(name string) bool {
	for _, p := range only42 {
		if name == p || strings.HasPrefix(name, p+".") {
			return true
		}
	}
	return false
}

// TestSparkDescriptors compares every message, field and enum value of the
// subset with the descriptors of the lane server's own pyspark: the same
// full names, field numbers, types and cardinalities, and enum numbers.
// Fields Spark has and the subset leaves out are fine; the reverse is not.
func TestSparkDescriptors(t *testing.T) {
	lane := testenv.Spark(t)
	if lane.Python == "" {
		t.Skip(testenv.EnvSparkPython + " is not set: no pyspark descriptors to compare with")
	}
	out, err := exec.Command(lane.Python, "-c", dumpDescriptors).Output()
	if err != nil {
		t.Fatalf("dump pyspark's descriptors: %v", err)
	}
	var spark map[string]pyDesc
	if err := json.Unmarshal(out, &spark); err != nil {
		t.Fatal(err)
	}
	checked := 0
	differ := func(name, format string, args ...any) {
		t.Helper()
		if why, ok := knownDifference(name); ok {
			t.Logf("known difference (%s): "+format, append([]any{why}, args...)...)
			return
		}
		t.Errorf(format, args...)
	}
	protoregistry.GlobalFiles.RangeFilesByPackage("spark.connect", func(fd protoreflect.FileDescriptor) bool {
		var msgs func(ms protoreflect.MessageDescriptors)
		var enums func(es protoreflect.EnumDescriptors)
		enums = func(es protoreflect.EnumDescriptors) {
			for i := 0; i < es.Len(); i++ {
				e := es.Get(i)
				name := string(e.FullName())
				want, ok := spark[name]
				if !ok {
					if !(lane.Target == "spark-4.1" && is42Only(name)) {
						differ(name, "enum %s is not in Spark's protocol", name)
					}
					continue
				}
				for j := 0; j < e.Values().Len(); j++ {
					v := e.Values().Get(j)
					if n, ok := want.Values[string(v.Name())]; !ok || n != int32(v.Number()) {
						differ(name, "%s.%s = %d; Spark's: %d (declared: %v)", name, v.Name(), v.Number(), n, ok)
					}
					checked++
				}
			}
		}
		msgs = func(ms protoreflect.MessageDescriptors) {
			for i := 0; i < ms.Len(); i++ {
				m := ms.Get(i)
				name := string(m.FullName())
				if m.IsMapEntry() {
					continue
				}
				want, ok := spark[name]
				if !ok {
					if !(lane.Target == "spark-4.1" && is42Only(name)) {
						differ(name, "message %s is not in Spark's protocol", name)
					}
					continue
				}
				for j := 0; j < m.Fields().Len(); j++ {
					f := m.Fields().Get(j)
					fname := name + "." + string(f.Name())
					sf, ok := want.Fields[string(f.Name())]
					if !ok {
						if !(lane.Target == "spark-4.1" && is42Only(fname)) {
							differ(fname, "field %s is not in Spark's protocol", fname)
						}
						continue
					}
					var ref string
					switch {
					case f.IsMap():
						ref = string(f.Message().FullName())
					case f.Message() != nil:
						ref = string(f.Message().FullName())
					case f.Enum() != nil:
						ref = string(f.Enum().FullName())
					}
					if sf.Number != int32(f.Number()) || sf.Type != int(f.Kind()) || sf.Repeated != (f.Cardinality() == protoreflect.Repeated) || sf.Ref != ref {
						differ(fname, "%s: number %d, kind %v, repeated %v, type %q; Spark's: number %d, kind %d, repeated %v, type %q",
							fname, f.Number(), f.Kind(), f.Cardinality() == protoreflect.Repeated, ref, sf.Number, sf.Type, sf.Repeated, sf.Ref)
					}
					checked++
				}
				msgs(m.Messages())
				enums(m.Enums())
			}
		}
		msgs(fd.Messages())
		enums(fd.Enums())
		return true
	})
	if checked < 100 {
		t.Errorf("checked %d fields and values only", checked)
	}
	t.Logf("%d fields and enum values match %s's descriptors", checked, lane.Target)
}
