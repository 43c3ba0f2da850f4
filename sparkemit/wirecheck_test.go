package sparkemit

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// The comparison behind TestSparkWire (build tag spark): the project's
// proto subset against a release's descriptors. It lives outside the tag so
// that TestWireCheckCatches, in the default lane, can show it fails on each
// kind of difference.

// marked42 compiles proto/ with its comments and returns the full names of
// the declarations marked 4.2-only: a leading comment starting "4.2-only".
func marked42(t *testing.T, dir string) map[protoreflect.FullName]bool {
	t.Helper()
	entries, err := os.ReadDir(dir + "/spark/connect")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".proto") {
			names = append(names, "spark/connect/"+e.Name())
		}
	}
	c := protocompile.Compiler{
		Resolver:       protocompile.WithStandardImports(&protocompile.SourceResolver{ImportPaths: []string{dir}}),
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	linked, err := c.Compile(context.Background(), names...)
	if err != nil {
		t.Fatal(err)
	}
	out := map[protoreflect.FullName]bool{}
	mark := func(d protoreflect.Descriptor) {
		loc := d.ParentFile().SourceLocations().ByDescriptor(d)
		if strings.HasPrefix(strings.TrimSpace(loc.LeadingComments), "4.2-only") {
			out[d.FullName()] = true
		}
	}
	var enum func(protoreflect.EnumDescriptor)
	enum = func(e protoreflect.EnumDescriptor) {
		mark(e)
		for i := 0; i < e.Values().Len(); i++ {
			mark(e.Values().Get(i))
		}
	}
	var msg func(protoreflect.MessageDescriptor)
	msg = func(m protoreflect.MessageDescriptor) {
		mark(m)
		for i := 0; i < m.Fields().Len(); i++ {
			mark(m.Fields().Get(i))
		}
		for i := 0; i < m.Messages().Len(); i++ {
			msg(m.Messages().Get(i))
		}
		for i := 0; i < m.Enums().Len(); i++ {
			enum(m.Enums().Get(i))
		}
	}
	for _, f := range linked {
		for i := 0; i < f.Messages().Len(); i++ {
			msg(f.Messages().Get(i))
		}
		for i := 0; i < f.Enums().Len(); i++ {
			enum(f.Enums().Get(i))
		}
	}
	return out
}

// wireCheck compares the project's declarations with a release's.
type wireCheck struct {
	release *protoregistry.Files
	who     string // "pyspark 4.2.1"
	only42  map[protoreflect.FullName]bool
	is41    bool
	diffs   []string

	messages, fields, values, methods int
}

func (w *wireCheck) errorf(format string, args ...any) {
	w.diffs = append(w.diffs, fmt.Sprintf(format, args...))
}

// is42 reports whether d, or a declaration around it, is marked 4.2-only.
func (w *wireCheck) is42(d protoreflect.Descriptor) bool {
	for ; d != nil; d = d.Parent() {
		if w.only42[d.FullName()] {
			return true
		}
	}
	return false
}

func (w *wireCheck) file(fd protoreflect.FileDescriptor) {
	for i := 0; i < fd.Messages().Len(); i++ {
		w.message(fd.Messages().Get(i))
	}
	for i := 0; i < fd.Enums().Len(); i++ {
		w.enum(fd.Enums().Get(i))
	}
	for i := 0; i < fd.Services().Len(); i++ {
		w.service(fd.Services().Get(i))
	}
}

// lookup finds the release's declaration of name; nil when it has none.
func (w *wireCheck) lookup(name protoreflect.FullName) protoreflect.Descriptor {
	d, err := w.release.FindDescriptorByName(name)
	if err != nil {
		return nil
	}
	return d
}

// absent checks that the release lacks a 4.2-only declaration.
func (w *wireCheck) absent(d protoreflect.Descriptor, what string) {
	if got := w.lookup(d.FullName()); got != nil {
		w.errorf("%s: marked 4.2-only, but %s (a spark-4.1 server) has %s %s", d.FullName(), w.who, what, got.FullName())
	}
}

func (w *wireCheck) message(m protoreflect.MessageDescriptor) {
	w.messages++
	if w.is41 && w.is42(m) {
		w.absent(m, "message")
		return
	}
	d := w.lookup(m.FullName())
	rm, ok := d.(protoreflect.MessageDescriptor)
	if !ok {
		w.errorf("message %s: %s has no such message", m.FullName(), w.who)
		return
	}
	for i := 0; i < m.Fields().Len(); i++ {
		w.field(m.Fields().Get(i), rm)
	}
	for i := 0; i < m.Messages().Len(); i++ {
		if !m.Messages().Get(i).IsMapEntry() {
			w.message(m.Messages().Get(i))
		}
	}
	for i := 0; i < m.Enums().Len(); i++ {
		w.enum(m.Enums().Get(i))
	}
}

func (w *wireCheck) field(f protoreflect.FieldDescriptor, rm protoreflect.MessageDescriptor) {
	w.fields++
	byNum := rm.Fields().ByNumber(f.Number())
	byName := rm.Fields().ByName(f.Name())
	if w.is41 && w.is42(f) {
		switch {
		case byNum != nil:
			w.errorf("%s: marked 4.2-only, but %s (a spark-4.1 server) has field %d: %s", f.FullName(), w.who, f.Number(), fieldText(byNum))
		case byName != nil:
			w.errorf("%s: marked 4.2-only, but %s (a spark-4.1 server) has a field of that name: %s", f.FullName(), w.who, fieldText(byName))
		}
		return
	}
	switch {
	case byNum == nil && byName != nil:
		w.errorf("%s: Þund declares %s, %s numbers it differently: %s", f.FullName(), fieldText(f), w.who, fieldText(byName))
	case byNum == nil:
		w.errorf("%s: Þund declares %s, %s has no field %d (nor one named %s)", f.FullName(), fieldText(f), w.who, f.Number(), f.Name())
	case fieldText(byNum) != fieldText(f):
		w.errorf("%s: Þund declares %s, %s has %s", f.FullName(), fieldText(f), w.who, fieldText(byNum))
	}
}

// fieldText is a field as it reads in a .proto file, with its oneof:
// "repeated spark.connect.Expression keys = 2", "optional string name = 1",
// "spark.connect.Read read = 2 (oneof rel_type)".
func fieldText(f protoreflect.FieldDescriptor) string {
	var b strings.Builder
	switch {
	case f.IsMap():
		fmt.Fprintf(&b, "map<%s, %s>", typeName(f.MapKey()), typeName(f.MapValue()))
	case f.Cardinality() == protoreflect.Repeated:
		b.WriteString("repeated " + typeName(f))
	case f.HasOptionalKeyword():
		b.WriteString("optional " + typeName(f))
	default:
		b.WriteString(typeName(f))
	}
	fmt.Fprintf(&b, " %s = %d", f.Name(), f.Number())
	if o := f.ContainingOneof(); o != nil && !o.IsSynthetic() {
		fmt.Fprintf(&b, " (oneof %s)", o.Name())
	}
	return b.String()
}

func typeName(f protoreflect.FieldDescriptor) string {
	switch {
	case f.Message() != nil:
		return string(f.Message().FullName())
	case f.Enum() != nil:
		return string(f.Enum().FullName())
	}
	return f.Kind().String()
}

func (w *wireCheck) enum(e protoreflect.EnumDescriptor) {
	if w.is41 && w.is42(e) {
		w.absent(e, "enum")
		return
	}
	re, ok := w.lookup(e.FullName()).(protoreflect.EnumDescriptor)
	if !ok {
		w.errorf("enum %s: %s has no such enum", e.FullName(), w.who)
		return
	}
	for i := 0; i < e.Values().Len(); i++ {
		w.values++
		v := e.Values().Get(i)
		got := re.Values().ByNumber(v.Number())
		if w.is41 && w.is42(v) {
			if got != nil {
				w.errorf("%s: marked 4.2-only, but %s (a spark-4.1 server) has %s = %d", v.FullName(), w.who, got.Name(), got.Number())
			}
			continue
		}
		switch {
		case got == nil && re.Values().ByName(v.Name()) != nil:
			w.errorf("%s: Þund declares %s = %d, %s has %s = %d", v.FullName(), v.Name(), v.Number(), w.who, v.Name(), re.Values().ByName(v.Name()).Number())
		case got == nil:
			w.errorf("%s: Þund declares %s = %d, %s has no value %d (nor one named %s)", v.FullName(), v.Name(), v.Number(), w.who, v.Number(), v.Name())
		case got.Name() != v.Name():
			w.errorf("%s: Þund declares %s = %d, %s has %s = %d", v.FullName(), v.Name(), v.Number(), w.who, got.Name(), got.Number())
		}
	}
}

func (w *wireCheck) service(s protoreflect.ServiceDescriptor) {
	rs, ok := w.lookup(s.FullName()).(protoreflect.ServiceDescriptor)
	if !ok {
		w.errorf("service %s: %s has no such service", s.FullName(), w.who)
		return
	}
	for i := 0; i < s.Methods().Len(); i++ {
		w.methods++
		m := s.Methods().Get(i)
		got := rs.Methods().ByName(m.Name())
		if got == nil {
			w.errorf("%s: %s has no such RPC", m.FullName(), w.who)
		} else if methodText(got) != methodText(m) {
			w.errorf("%s: Þund declares %s, %s has %s", m.FullName(), methodText(m), w.who, methodText(got))
		}
	}
}

// methodText is an RPC as it reads in a .proto file.
func methodText(m protoreflect.MethodDescriptor) string {
	stream := func(on bool) string {
		if on {
			return "stream "
		}
		return ""
	}
	return fmt.Sprintf("rpc %s(%s%s) returns (%s%s)", m.Name(), stream(m.IsStreamingClient()), m.Input().FullName(), stream(m.IsStreamingServer()), m.Output().FullName())
}

// TestWireCheckCatches runs the comparison against connectpb's own
// descriptors, as a release that agrees on everything, and then against
// copies changed in one declaration each: each change is one difference,
// naming the declaration.
func TestWireCheckCatches(t *testing.T) {
	only42 := marked42(t, "proto")
	for _, want := range []protoreflect.FullName{
		"spark.connect.PipelineCommand.execute_output_flows",
		"spark.connect.PipelineCommand.DefineFlow.auto_cdc_flow_details",
	} {
		if !only42[want] {
			t.Errorf("%s is not marked 4.2-only in proto/", want)
		}
	}
	check := func(release *protoregistry.Files, is41 bool) []string {
		w := &wireCheck{release: release, who: "the release", only42: only42, is41: is41}
		protoregistry.GlobalFiles.RangeFilesByPackage("spark.connect", func(fd protoreflect.FileDescriptor) bool {
			w.file(fd)
			return true
		})
		return w.diffs
	}
	if d := check(selfRelease(t, nil), false); len(d) != 0 {
		t.Errorf("connectpb differs from itself:\n%s", strings.Join(d, "\n"))
	}
	// A spark-4.1 release has none of the 4.2-only declarations.
	d41 := strings.Join(check(selfRelease(t, nil), true), "\n")
	for _, want := range []string{
		"spark.connect.PipelineCommand.execute_output_flows: marked 4.2-only, but the release (a spark-4.1 server) has field 9",
		"spark.connect.PipelineCommand.DefineFlow.auto_cdc_flow_details: marked 4.2-only",
		"spark.connect.PipelineCommand.DefineFlow.AutoCdcFlowDetails: marked 4.2-only, but the release (a spark-4.1 server) has message",
	} {
		if !strings.Contains(d41, want) {
			t.Errorf("as a 4.1 release, connectpb's own files give\n%s\nwhich lacks %q", d41, want)
		}
	}
	for _, c := range []struct {
		name string
		edit func(m func(string) *descriptorpb.DescriptorProto)
		want string
	}{
		{"renumbered", func(m func(string) *descriptorpb.DescriptorProto) {
			fieldOf(t, m("PipelineCommand.DefineFlow"), "once").Number = proto.Int32(11)
		}, "spark.connect.PipelineCommand.DefineFlow.once: Þund declares optional bool once = 8, the release numbers it differently: optional bool once = 11"},
		{"renamed", func(m func(string) *descriptorpb.DescriptorProto) {
			fieldOf(t, m("PipelineCommand.DefineOutput"), "comment").Name = proto.String("description")
		}, "spark.connect.PipelineCommand.DefineOutput.comment: Þund declares optional string comment = 4, the release has optional string description = 4"},
		{"retyped", func(m func(string) *descriptorpb.DescriptorProto) {
			fieldOf(t, m("PipelineCommand.StartRun"), "dry").Type = descriptorpb.FieldDescriptorProto_TYPE_STRING.Enum()
		}, "spark.connect.PipelineCommand.StartRun.dry: Þund declares optional bool dry = 5, the release has optional string dry = 5"},
		{"made repeated", func(m func(string) *descriptorpb.DescriptorProto) {
			f := fieldOf(t, m("Read"), "is_streaming")
			f.Label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
		}, "spark.connect.Read.is_streaming: Þund declares bool is_streaming = 3, the release has repeated bool is_streaming = 3"},
		{"out of its oneof", func(m func(string) *descriptorpb.DescriptorProto) {
			fieldOf(t, m("Relation"), "read").OneofIndex = nil
		}, "spark.connect.Relation.read: Þund declares spark.connect.Read read = 2 (oneof rel_type), the release has spark.connect.Read read = 2"},
		{"removed", func(m func(string) *descriptorpb.DescriptorProto) {
			sr := m("PipelineCommand.StartRun")
			sr.Field = slices.DeleteFunc(sr.Field, func(f *descriptorpb.FieldDescriptorProto) bool { return f.GetName() == "refresh_selection" })
		}, "spark.connect.PipelineCommand.StartRun.refresh_selection: Þund declares repeated string refresh_selection = 4, the release has no field 4 (nor one named refresh_selection)"},
		{"enum value removed", func(m func(string) *descriptorpb.DescriptorProto) {
			e := m("PipelineCommand.DefineFlow").EnumType[0]
			e.Value = slices.DeleteFunc(e.Value, func(v *descriptorpb.EnumValueDescriptorProto) bool { return v.GetNumber() == 1 })
		}, "spark.connect.PipelineCommand.DefineFlow.SCD_TYPE_1: Þund declares SCD_TYPE_1 = 1, the release has no value 1 (nor one named SCD_TYPE_1)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := check(selfRelease(t, c.edit), false)
			if len(d) != 1 || d[0] != c.want {
				t.Errorf("differences:\n%s\nwant just\n%s", strings.Join(d, "\n"), c.want)
			}
		})
	}
}

// selfRelease is connectpb's own files (and the files they import) as
// descriptor protos, changed by edit, linked as a release's would be. edit
// finds a spark.connect message by its name within the package.
func selfRelease(t *testing.T, edit func(msg func(name string) *descriptorpb.DescriptorProto)) *protoregistry.Files {
	t.Helper()
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		for i := 0; i < fd.Imports().Len(); i++ {
			add(fd.Imports().Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
	}
	protoregistry.GlobalFiles.RangeFilesByPackage("spark.connect", func(fd protoreflect.FileDescriptor) bool {
		add(fd)
		return true
	})
	msg := func(name string) *descriptorpb.DescriptorProto {
		for _, f := range set.File {
			if f.GetPackage() != "spark.connect" {
				continue
			}
			list := f.MessageType
			var m *descriptorpb.DescriptorProto
			for _, part := range strings.Split(name, ".") {
				m = nil
				for _, c := range list {
					if c.GetName() == part {
						m = c
					}
				}
				if m == nil {
					break
				}
				list = m.NestedType
			}
			if m != nil {
				return m
			}
		}
		t.Fatalf("no message spark.connect.%s", name)
		return nil
	}
	if edit != nil {
		edit(msg)
	}
	files, err := protodesc.NewFiles(set)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func fieldOf(t *testing.T, m *descriptorpb.DescriptorProto, name string) *descriptorpb.FieldDescriptorProto {
	t.Helper()
	for _, f := range m.Field {
		if f.GetName() == name {
			return f
		}
	}
	t.Fatalf("no field %s in %s", name, m.GetName())
	return nil
}
