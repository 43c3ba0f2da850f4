// Package sparktest is an in-process Spark Connect server for tests: it
// implements SparkConnectService.ExecutePlan for pipeline commands, records
// every request it decodes, and plays back the response stream a Spark 4.1
// pipeline server sends (a graph id for CreateDataflowGraph, resolved
// identifiers for DefineOutput and DefineFlow, pipeline events and the
// command result for StartRun). It imports nothing from the compiler.
package sparktest

import (
	"context"

	"net"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// GraphID is the dataflow_graph_id the server hands out.
const GraphID = "b7d9c1f0-graph-0001"

// Server is a running fake. Set its fields before the first call.
type Server struct {
	pb.UnimplementedSparkConnectServiceServer

	// ResultFirst sends StartRun's command result before its events (a
	// Spark 4.1 server sends it after the run; the Python client expects
	// it first: a client must take either order).
	ResultFirst bool
	// Events are the messages of StartRun's pipeline events, in order.
	Events []string
	// FailRun, when set, ends StartRun with this gRPC error after the events.
	FailRun error
	// FailOn, when set, fails the request whose command description starts
	// with it (e.g. "define_flow") with status INVALID_ARGUMENT.
	FailOn string

	Addr string

	mu       sync.Mutex
	requests []*pb.ExecutePlanRequest
	auth     []string
	srv      *grpc.Server
	lis      net.Listener
}

// DefaultEvents is a realistic event stream of a small run.
var DefaultEvents = []string{
	"Flow spark_catalog.default.clean_sales is QUEUED.",
	"Flow spark_catalog.default.clean_sales is PLANNING.",
	"Flow spark_catalog.default.clean_sales is STARTING.",
	"Flow spark_catalog.default.clean_sales is RUNNING.",
	"Flow spark_catalog.default.clean_sales has COMPLETED.",
	"Run is COMPLETED.",
}

// Start listens on a free local TCP port and serves in the background.
func Start(s *Server) (*Server, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	if s.Events == nil {
		s.Events = DefaultEvents
	}
	s.lis = lis
	s.Addr = lis.Addr().String()
	s.srv = grpc.NewServer()
	pb.RegisterSparkConnectServiceServer(s.srv, s)
	go s.srv.Serve(lis)
	return s, nil
}

// Stop stops the server.
func (s *Server) Stop() { s.srv.Stop() }

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []*pb.ExecutePlanRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*pb.ExecutePlanRequest(nil), s.requests...)
}

// Authorization returns the authorization metadata of each request.
func (s *Server) Authorization() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.auth...)
}

func describe(c *pb.PipelineCommand) string {
	switch c.CommandType.(type) {
	case *pb.PipelineCommand_CreateDataflowGraph_:
		return "create_dataflow_graph"
	case *pb.PipelineCommand_DefineOutput_:
		return "define_output"
	case *pb.PipelineCommand_DefineFlow_:
		return "define_flow"
	case *pb.PipelineCommand_DefineSqlGraphElements_:
		return "define_sql_graph_elements"
	case *pb.PipelineCommand_StartRun_:
		return "start_run"
	}
	return "other"
}

// ExecutePlan decodes one request and answers as a pipeline server does.
func (s *Server) ExecutePlan(req *pb.ExecutePlanRequest, stream pb.SparkConnectService_ExecutePlanServer) error {
	s.mu.Lock()
	s.requests = append(s.requests, proto.Clone(req).(*pb.ExecutePlanRequest))
	md, _ := metadata.FromIncomingContext(stream.Context())
	s.auth = append(s.auth, strings.Join(md.Get("authorization"), ","))
	s.mu.Unlock()

	if _, err := uuid.Parse(req.GetSessionId()); err != nil {
		return status.Errorf(codes.InvalidArgument, "[INVALID_HANDLE.FORMAT] The handle %s is invalid. Handle must be an UUID string of the format '00112233-4455-6677-8899-aabbccddeeff'", req.GetSessionId())
	}
	cmd := req.GetPlan().GetCommand().GetPipelineCommand()
	if cmd == nil {
		return status.Errorf(codes.Unimplemented, "only pipeline commands are served here")
	}
	what := describe(cmd)
	if s.FailOn != "" && strings.HasPrefix(what, s.FailOn) {
		return status.Errorf(codes.InvalidArgument, "[PIPELINE_SQL_GRAPH_ELEMENT_REGISTRATION_ERROR] %s was refused by the test server", what)
	}
	op := uuid.NewString()
	send := func(r *pb.ExecutePlanResponse) error {
		r.SessionId = req.GetSessionId()
		r.OperationId = op
		r.ResponseId = uuid.NewString()
		return stream.Send(r)
	}
	result := func(res *pb.PipelineCommandResult) error {
		return send(&pb.ExecutePlanResponse{ResponseType: &pb.ExecutePlanResponse_PipelineCommandResult{PipelineCommandResult: res}})
	}
	complete := func() error {
		return send(&pb.ExecutePlanResponse{ResponseType: &pb.ExecutePlanResponse_ResultComplete_{ResultComplete: &pb.ExecutePlanResponse_ResultComplete{}}})
	}
	graphOK := func(id *string) error {
		if id == nil || *id != GraphID {
			return status.Errorf(codes.InvalidArgument, "[DATAFLOW_GRAPH_NOT_FOUND] Dataflow graph with id %q could not be found", stringOf(id))
		}
		return nil
	}
	ident := func(name string) *pb.ResolvedIdentifier {
		return &pb.ResolvedIdentifier{CatalogName: "spark_catalog", Namespace: []string{"default"}, TableName: name}
	}
	switch x := cmd.CommandType.(type) {
	case *pb.PipelineCommand_CreateDataflowGraph_:
		if err := result(&pb.PipelineCommandResult{ResultType: &pb.PipelineCommandResult_CreateDataflowGraphResult_{CreateDataflowGraphResult: &pb.PipelineCommandResult_CreateDataflowGraphResult{DataflowGraphId: proto.String(GraphID)}}}); err != nil {
			return err
		}
	case *pb.PipelineCommand_DefineOutput_:
		if err := graphOK(x.DefineOutput.DataflowGraphId); err != nil {
			return err
		}
		if err := result(&pb.PipelineCommandResult{ResultType: &pb.PipelineCommandResult_DefineOutputResult_{DefineOutputResult: &pb.PipelineCommandResult_DefineOutputResult{ResolvedIdentifier: ident(x.DefineOutput.GetOutputName())}}}); err != nil {
			return err
		}
	case *pb.PipelineCommand_DefineFlow_:
		if err := graphOK(x.DefineFlow.DataflowGraphId); err != nil {
			return err
		}
		if err := result(&pb.PipelineCommandResult{ResultType: &pb.PipelineCommandResult_DefineFlowResult_{DefineFlowResult: &pb.PipelineCommandResult_DefineFlowResult{ResolvedIdentifier: ident(x.DefineFlow.GetFlowName())}}}); err != nil {
			return err
		}
	case *pb.PipelineCommand_DefineSqlGraphElements_:
		if err := graphOK(x.DefineSqlGraphElements.DataflowGraphId); err != nil {
			return err
		}
		if err := result(&pb.PipelineCommandResult{}); err != nil {
			return err
		}
	case *pb.PipelineCommand_StartRun_:
		if err := graphOK(x.StartRun.DataflowGraphId); err != nil {
			return err
		}
		if x.StartRun.GetStorage() == "" {
			return status.Errorf(codes.Internal, "java.lang.IllegalArgumentException: Storage must be specified to start a run.")
		}
		if s.ResultFirst {
			if err := result(&pb.PipelineCommandResult{}); err != nil {
				return err
			}
		}
		t0 := time.Date(2026, 12, 2, 18, 0, 0, 0, time.UTC)
		for i, m := range s.Events {
			ev := &pb.PipelineEvent{Timestamp: timestamppb.New(t0.Add(time.Duration(i) * time.Second)), Message: proto.String(m)}
			if err := send(&pb.ExecutePlanResponse{ResponseType: &pb.ExecutePlanResponse_PipelineEventResult{PipelineEventResult: &pb.PipelineEventResult{Event: ev}}}); err != nil {
				return err
			}
		}
		if s.FailRun != nil {
			return s.FailRun
		}
		if !s.ResultFirst {
			if err := result(&pb.PipelineCommandResult{}); err != nil {
				return err
			}
		}
	default:
		return status.Errorf(codes.Unimplemented, "UnsupportedOperationException: %T", x)
	}
	return complete()
}

func stringOf(p *string) string {
	if p == nil {
		return "<unset>"
	}
	return *p
}

// Ctx is a context with a test-sized timeout.
func Ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 30*time.Second)
}
