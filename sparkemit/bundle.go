package sparkemit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// marshalOptions make bundle bytes deterministic: map entries sorted.
var marshalOptions = proto.MarshalOptions{Deterministic: true}

// MarshalBinary writes the bundle as length-delimited ExecutePlanRequests
// (a varint length, then the message), in send order.
func (b Bundle) MarshalBinary() ([]byte, error) {
	var buf bytes.Buffer
	for _, r := range b.Requests {
		if _, err := (protodelim.MarshalOptions{MarshalOptions: marshalOptions}).MarshalTo(&buf, r); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// MarshalText writes each request in protobuf text format after a line
// "# N: <command>".
func (b Bundle) MarshalText() ([]byte, error) {
	var buf bytes.Buffer
	for i, r := range b.Requests {
		fmt.Fprintf(&buf, "# %d: %s\n", i+1, Describe(r))
		text, err := textOf(r)
		if err != nil {
			return nil, err
		}
		buf.WriteString(text)
	}
	return buf.Bytes(), nil
}

// textOf is prototext's multi-line form with its deliberately random
// spacing (an extra space after some "name:") removed, so the text is the
// same from one build to the next.
func textOf(m proto.Message) (string, error) {
	raw, err := prototext.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(m)
	if err != nil {
		return "", err
	}
	lines := strings.Split(string(raw), "\n")
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		if strings.HasPrefix(trimmed, `"`) {
			continue
		}
		if c := strings.Index(line, ":"); c >= 0 && strings.HasPrefix(line[c+1:], "  ") {
			lines[i] = line[:c+1] + line[c+2:]
		}
	}
	return strings.Join(lines, "\n"), nil
}

// ReadBundle decodes a bundle in either form: binary (length-delimited) or
// text (starting with "# 1: ").
func ReadBundle(data []byte) ([]*pb.ExecutePlanRequest, error) {
	if bytes.HasPrefix(data, []byte("# ")) {
		return readText(data)
	}
	var out []*pb.ExecutePlanRequest
	r := bufio.NewReader(bytes.NewReader(data))
	for i := 1; ; i++ {
		m := &pb.ExecutePlanRequest{}
		err := protodelim.UnmarshalFrom(r, m)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("request %d: %w", i, err)
		}
		out = append(out, m)
	}
}

// readText splits the text form at its "# N:" lines.
func readText(data []byte) ([]*pb.ExecutePlanRequest, error) {
	var out []*pb.ExecutePlanRequest
	var cur []string
	flush := func() error {
		if cur == nil {
			return nil
		}
		m := &pb.ExecutePlanRequest{}
		if err := prototext.Unmarshal([]byte(strings.Join(cur, "\n")), m); err != nil {
			return fmt.Errorf("request %d: %w", len(out)+1, err)
		}
		out = append(out, m)
		cur = nil
		return nil
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "# ") {
			if err := flush(); err != nil {
				return nil, err
			}
			cur = []string{}
			continue
		}
		if cur == nil {
			if strings.TrimSpace(line) == "" {
				continue
			}
			return nil, fmt.Errorf("text bundle: %q before the first \"# N:\" line", line)
		}
		cur = append(cur, line)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
}

// PipelineCommandOf returns a request's pipeline command, or nil.
func PipelineCommandOf(r *pb.ExecutePlanRequest) *pb.PipelineCommand {
	return r.GetPlan().GetCommand().GetPipelineCommand()
}

// Describe names a request's command: "define_output enriched
// (MATERIALIZED_VIEW)", "define_flow f -> t", "start_run".
func Describe(r *pb.ExecutePlanRequest) string {
	c := PipelineCommandOf(r)
	if c == nil {
		return "not a pipeline command"
	}
	switch x := c.CommandType.(type) {
	case *pb.PipelineCommand_CreateDataflowGraph_:
		return "create_dataflow_graph"
	case *pb.PipelineCommand_DefineOutput_:
		return fmt.Sprintf("define_output %s (%s)", x.DefineOutput.GetOutputName(), x.DefineOutput.GetOutputType())
	case *pb.PipelineCommand_DefineFlow_:
		return fmt.Sprintf("define_flow %s -> %s", x.DefineFlow.GetFlowName(), x.DefineFlow.GetTargetDatasetName())
	case *pb.PipelineCommand_DefineSqlGraphElements_:
		return "define_sql_graph_elements " + x.DefineSqlGraphElements.GetSqlFilePath()
	case *pb.PipelineCommand_StartRun_:
		if x.StartRun.GetDry() {
			return "start_run (dry)"
		}
		return "start_run"
	case *pb.PipelineCommand_DropDataflowGraph_:
		return "drop_dataflow_graph"
	case *pb.PipelineCommand_ExecuteOutputFlows_:
		return "execute_output_flows"
	}
	return "pipeline command"
}

// WithGraphID returns a copy of r with every dataflow_graph_id field of its
// command set to id (CreateDataflowGraph has none).
func WithGraphID(r *pb.ExecutePlanRequest, id string) *pb.ExecutePlanRequest {
	r = proto.Clone(r).(*pb.ExecutePlanRequest)
	c := PipelineCommandOf(r)
	if c == nil {
		return r
	}
	switch x := c.CommandType.(type) {
	case *pb.PipelineCommand_DefineOutput_:
		x.DefineOutput.DataflowGraphId = proto.String(id)
	case *pb.PipelineCommand_DefineFlow_:
		x.DefineFlow.DataflowGraphId = proto.String(id)
	case *pb.PipelineCommand_DefineSqlGraphElements_:
		x.DefineSqlGraphElements.DataflowGraphId = proto.String(id)
	case *pb.PipelineCommand_StartRun_:
		x.StartRun.DataflowGraphId = proto.String(id)
	case *pb.PipelineCommand_DropDataflowGraph_:
		x.DropDataflowGraph.DataflowGraphId = proto.String(id)
	}
	return r
}
