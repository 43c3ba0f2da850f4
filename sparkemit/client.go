package sparkemit

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// DefaultPort is Spark Connect's default port.
const DefaultPort = 15002

// Remote is a parsed Spark Connect connection string:
//
//	sc://host[:port][/][;key=value]...
//
// with the keys the official clients accept: token (a bearer token; it
// implies use_ssl=true), use_ssl, user_id, user_agent and session_id (a
// UUID). Other keys are sent as gRPC metadata, as the clients do.
type Remote struct {
	Host      string
	Port      int
	Token     string // never printed: String and errors leave it out
	UseSSL    bool
	UserID    string
	UserAgent string
	SessionID string
	Metadata  map[string]string // the other key=value pairs
}

// Addr is host:port.
func (r *Remote) Addr() string { return net.JoinHostPort(r.Host, strconv.Itoa(r.Port)) }

// String is the connection string without the token.
func (r *Remote) String() string {
	s := "sc://" + r.Addr()
	if r.Token != "" {
		s += "/;token=<redacted>"
	}
	return s
}

// ParseRemote parses a connection string.
func ParseRemote(s string) (*Remote, error) {
	rest, ok := strings.CutPrefix(s, "sc://")
	if !ok {
		return nil, fmt.Errorf("connection string must start with sc:// (sc://host:port/;key=value...)")
	}
	hostport, params, _ := strings.Cut(rest, ";")
	hostport = strings.TrimSuffix(hostport, "/")
	if strings.Contains(hostport, "/") {
		return nil, fmt.Errorf("connection string: a path is not allowed after the host (want sc://host:port/;key=value...)")
	}
	r := &Remote{Port: DefaultPort, Metadata: map[string]string{}}
	u, err := url.Parse("http://" + hostport)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("connection string: bad host %q", hostport)
	}
	r.Host = u.Hostname()
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 65535 {
			return nil, fmt.Errorf("connection string: bad port %q", p)
		}
		r.Port = n
	}
	sslSet := false
	if params != "" {
		for _, kv := range strings.Split(params, ";") {
			if kv == "" {
				continue
			}
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return nil, fmt.Errorf("connection string: parameter %q is not key=value", redactParam(kv))
			}
			v, err := url.QueryUnescape(v)
			if err != nil {
				return nil, fmt.Errorf("connection string: parameter %s: bad escape", k)
			}
			switch k {
			case "token":
				r.Token = v
			case "use_ssl":
				b, err := strconv.ParseBool(v)
				if err != nil {
					return nil, fmt.Errorf("connection string: use_ssl=%q: want true or false", v)
				}
				r.UseSSL, sslSet = b, true
			case "user_id":
				r.UserID = v
			case "user_agent":
				r.UserAgent = v
			case "session_id":
				if _, err := uuid.Parse(v); err != nil {
					return nil, fmt.Errorf("connection string: session_id %q is not a UUID", v)
				}
				r.SessionID = v
			default:
				r.Metadata[k] = v
			}
		}
	}
	if r.Token != "" {
		if sslSet && !r.UseSSL {
			return nil, fmt.Errorf("connection string: a token is sent over TLS only, and use_ssl=false turns TLS off")
		}
		r.UseSSL = true
	}
	return r, nil
}

func redactParam(kv string) string {
	if strings.HasPrefix(kv, "token") {
		return "token<redacted>"
	}
	return kv
}

// bearer sends the token on every call, and only over TLS.
type bearer string

func (b bearer) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(b)}, nil
}
func (bearer) RequireTransportSecurity() bool { return true }

// Dial opens a client connection (lazily: nothing is sent until the first
// call).
func Dial(r *Remote, extra ...grpc.DialOption) (*grpc.ClientConn, error) {
	var opts []grpc.DialOption
	if r.UseSSL {
		opts = append(opts, grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{ServerName: r.Host, MinVersion: tls.VersionTLS12})))
	} else {
		opts = append(opts, grpc.WithTransportCredentials(insecure.NewCredentials()))
	}
	if r.Token != "" {
		opts = append(opts, grpc.WithPerRPCCredentials(bearer(r.Token)))
	}
	if r.UserAgent != "" {
		opts = append(opts, grpc.WithUserAgent(r.UserAgent))
	}
	opts = append(opts, extra...)
	return grpc.NewClient(r.Addr(), opts...)
}

// Event is one PipelineEventResult as it arrived.
type Event struct {
	Request int // the 1-based request whose stream carried it
	Event   *pb.PipelineEvent
}

// RunError is a failed ExecutePlan call.
type RunError struct {
	Request   int
	Command   string
	Addr      string
	Transport bool // nothing answered: the server is unreachable
	Err       error
}

func (e *RunError) Error() string {
	if e.Transport {
		return fmt.Sprintf("cannot reach the Spark Connect server at %s (request %d, %s): %s", e.Addr, e.Request, e.Command, statusMessage(e.Err))
	}
	return fmt.Sprintf("request %d (%s) failed on the server at %s: %s", e.Request, e.Command, e.Addr, statusMessage(e.Err))
}

func (e *RunError) Unwrap() error { return e.Err }

func statusMessage(err error) string {
	if s, ok := status.FromError(err); ok {
		return fmt.Sprintf("%s: %s", s.Code(), s.Message())
	}
	return err.Error()
}

// Run sends a bundle's requests in order on one session, waiting for each
// response stream to end before the next. The graph id the server returns
// for CreateDataflowGraph is set in every later command; session_id is the
// connection string's, or a fresh UUID; user_id the connection string's
// when given. Each PipelineEventResult goes to onEvent as it arrives. A
// failed call stops the run with a *RunError carrying the server's status.
func Run(ctx context.Context, conn *grpc.ClientConn, r *Remote, reqs []*pb.ExecutePlanRequest, onEvent func(Event)) error {
	client := pb.NewSparkConnectServiceClient(conn)
	session := r.SessionID
	if session == "" {
		session = uuid.NewString()
	}
	graphID := ""
	for i, req := range reqs {
		n := i + 1
		cmd := Describe(req)
		if PipelineCommandOf(req) == nil {
			return fmt.Errorf("request %d is not a pipeline command", n)
		}
		_, isCreate := PipelineCommandOf(req).CommandType.(*pb.PipelineCommand_CreateDataflowGraph_)
		if !isCreate {
			if graphID == "" {
				return fmt.Errorf("request %d (%s): no dataflow graph yet (the bundle must start with create_dataflow_graph)", n, cmd)
			}
			req = WithGraphID(req, graphID)
		} else {
			req = WithGraphID(req, "")
		}
		req.SessionId = session
		if r.UserID != "" {
			req.UserContext = &pb.UserContext{UserId: r.UserID}
		}
		if r.UserAgent != "" {
			req.ClientType = &r.UserAgent
		}
		stream, err := client.ExecutePlan(ctx, req)
		if err != nil {
			return runErr(n, cmd, r, err)
		}
		for {
			resp, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return runErr(n, cmd, r, err)
			}
			switch x := resp.ResponseType.(type) {
			case *pb.ExecutePlanResponse_PipelineEventResult:
				if onEvent != nil {
					onEvent(Event{Request: n, Event: x.PipelineEventResult.GetEvent()})
				}
			case *pb.ExecutePlanResponse_PipelineCommandResult:
				if id := x.PipelineCommandResult.GetCreateDataflowGraphResult().GetDataflowGraphId(); id != "" && isCreate {
					graphID = id
				}
			}
		}
		if isCreate && graphID == "" {
			return fmt.Errorf("request %d (%s): the server at %s returned no dataflow_graph_id", n, cmd, r.Addr())
		}
	}
	return nil
}

func runErr(n int, cmd string, r *Remote, err error) error {
	transport := status.Code(err) == codes.Unavailable && strings.Contains(strings.ToLower(statusMessage(err)), "connection")
	return &RunError{Request: n, Command: cmd, Addr: r.Addr(), Transport: transport, Err: err}
}

// Query runs one SQL statement on the server (a Plan.root of Relation.sql)
// on the connection string's session, or a fresh one, and returns its
// result as the Arrow IPC streams the server sent, one per ArrowBatch (each
// a schema message and its record batches), in order. A command (CREATE
// DATABASE ...) runs eagerly and returns what the server sends for it.
func Query(ctx context.Context, conn *grpc.ClientConn, r *Remote, sql string) ([][]byte, error) {
	client := pb.NewSparkConnectServiceClient(conn)
	session := r.SessionID
	if session == "" {
		session = uuid.NewString()
	}
	user := r.UserID
	if user == "" {
		user = "thund"
	}
	req := &pb.ExecutePlanRequest{
		SessionId:   session,
		UserContext: &pb.UserContext{UserId: user},
		Plan:        &pb.Plan{OpType: &pb.Plan_Root{Root: &pb.Relation{RelType: &pb.Relation_Sql{Sql: &pb.SQL{Query: sql}}}}},
		ClientType:  proto.String(ClientType),
	}
	stream, err := client.ExecutePlan(ctx, req)
	if err != nil {
		return nil, runErr(1, "sql", r, err)
	}
	var out [][]byte
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, runErr(1, "sql", r, err)
		}
		if b := resp.GetArrowBatch(); b != nil && len(b.GetData()) > 0 {
			out = append(out, b.GetData())
		}
	}
}
