package sparkemit

import (
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/nordisk/thund/passes"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
	"github.com/nordisk/thund/sparkemit/sparktest"
)

func startServer(t *testing.T, s *sparktest.Server) *sparktest.Server {
	t.Helper()
	s, err := sparktest.Start(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}

func runAgainst(t *testing.T, s *sparktest.Server, conn string, reqs []*pb.ExecutePlanRequest) ([]Event, error) {
	t.Helper()
	r, err := ParseRemote(conn)
	if err != nil {
		t.Fatal(err)
	}
	cc, err := Dial(r)
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	ctx, cancel := sparktest.Ctx()
	defer cancel()
	var events []Event
	err = Run(ctx, cc, r, reqs, func(e Event) { events = append(events, e) })
	return events, err
}

// TestRunThreadsGraphID runs a bundle against the in-process server, with
// the command result after the events (as a Spark 4.1 server sends it) and
// before them (as the Python client expects it).
func TestRunThreadsGraphID(t *testing.T) {
	for _, first := range []bool{false, true} {
		name := "result-after-events"
		if first {
			name = "result-before-events"
		}
		t.Run(name, func(t *testing.T) {
			s := startServer(t, &sparktest.Server{ResultFirst: first})
			u := compileFile(t, "testdata/windows.thund", passes.Spark41)
			b, _ := emitBytes(t, u, Options{Storage: "file:///ckpt"})
			for _, r := range b.Requests {
				if c := PipelineCommandOf(r); c.GetDefineFlow().GetDataflowGraphId() != "" || c.GetDefineOutput().GetDataflowGraphId() != "" || c.GetStartRun().GetDataflowGraphId() != "" {
					t.Fatalf("the bundle carries a graph id: %v", Describe(r))
				}
			}
			events, err := runAgainst(t, s, "sc://"+s.Addr+"/;user_id=alice", b.Requests)
			if err != nil {
				t.Fatal(err)
			}
			got := s.Requests()
			if len(got) != len(b.Requests) {
				t.Fatalf("server saw %d requests, bundle has %d", len(got), len(b.Requests))
			}
			session := got[0].GetSessionId()
			if _, err := uuid.Parse(session); err != nil || session == b.Requests[0].GetSessionId() {
				t.Errorf("session id %q: want a fresh UUID, not the bundle's", session)
			}
			for i, r := range got {
				if r.GetSessionId() != session {
					t.Errorf("request %d on session %s, want %s", i+1, r.GetSessionId(), session)
				}
				if r.GetUserContext().GetUserId() != "alice" {
					t.Errorf("request %d: user_id %q", i+1, r.GetUserContext().GetUserId())
				}
				c := PipelineCommandOf(r)
				var id *string
				switch {
				case c.GetCreateDataflowGraph() != nil:
					continue
				case c.GetDefineOutput() != nil:
					id = c.GetDefineOutput().DataflowGraphId
				case c.GetDefineFlow() != nil:
					id = c.GetDefineFlow().DataflowGraphId
				case c.GetStartRun() != nil:
					id = c.GetStartRun().DataflowGraphId
				}
				if id == nil || *id != sparktest.GraphID {
					t.Errorf("request %d (%s) carries graph id %v, want the server's %s", i+1, Describe(r), id, sparktest.GraphID)
				}
			}
			if len(events) != len(sparktest.DefaultEvents) {
				t.Fatalf("got %d events, want %d", len(events), len(sparktest.DefaultEvents))
			}
			for i, e := range events {
				if e.Event.GetMessage() != sparktest.DefaultEvents[i] || e.Request != len(b.Requests) {
					t.Errorf("event %d = %q (request %d)", i, e.Event.GetMessage(), e.Request)
				}
			}
		})
	}
}

// TestRunFailure: a failed run exits with the server's error, after the
// events that came before it.
func TestRunFailure(t *testing.T) {
	s := startServer(t, &sparktest.Server{
		Events:  []string{"Flow bids_eur is RUNNING.", "Flow bids_eur has FAILED."},
		FailRun: status.Error(codes.Internal, "[STREAMING_QUERY_FAILED] bids_eur: division by zero"),
	})
	u := compileFile(t, "testdata/windows.thund", passes.Spark41)
	b, _ := emitBytes(t, u, Options{Storage: "file:///ckpt"})
	events, err := runAgainst(t, s, "sc://"+s.Addr, b.Requests)
	var re *RunError
	if !errors.As(err, &re) || re.Transport || !strings.Contains(err.Error(), "division by zero") || !strings.Contains(err.Error(), "start_run") {
		t.Fatalf("err = %v, want the server's error on start_run", err)
	}
	if len(events) != 2 {
		t.Errorf("got %d events before the failure, want 2", len(events))
	}
}

// TestRunRegistrationError stops at the refused command.
func TestRunRegistrationError(t *testing.T) {
	s := startServer(t, &sparktest.Server{FailOn: "define_flow"})
	u := compileFile(t, "testdata/windows.thund", passes.Spark41)
	b, _ := emitBytes(t, u, Options{Storage: "file:///ckpt"})
	_, err := runAgainst(t, s, "sc://"+s.Addr, b.Requests)
	if err == nil || !strings.Contains(err.Error(), "request 3 (define_flow bids -> bids)") || !strings.Contains(err.Error(), "InvalidArgument") {
		t.Fatalf("err = %v", err)
	}
	if n := len(s.Requests()); n != 3 {
		t.Errorf("server saw %d requests, want 3 (it stops at the failure)", n)
	}
}

// TestRunUnreachable names the address when nothing listens.
func TestRunUnreachable(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	u := compileFile(t, "testdata/windows.thund", passes.Spark41)
	b, _ := emitBytes(t, u, Options{})
	_, err = runAgainst(t, nil, "sc://"+addr, b.Requests)
	var re *RunError
	if !errors.As(err, &re) || !re.Transport || !strings.Contains(err.Error(), "cannot reach the Spark Connect server at "+addr) {
		t.Fatalf("err = %v", err)
	}
}

// TestTokenNeedsTLS: a token turns TLS on, is refused with use_ssl=false,
// never appears in String or errors, and its credentials demand TLS.
func TestTokenNeedsTLS(t *testing.T) {
	r, err := ParseRemote("sc://spark.example:443/;token=s3cr3t;user_id=bob;session_id=0b3c8e1a-6f5b-4d2e-9a7c-1f2e3d4c5b6a;x-extra=1")
	if err != nil {
		t.Fatal(err)
	}
	if !r.UseSSL || r.Token != "s3cr3t" || r.UserID != "bob" || r.Port != 443 || r.Metadata["x-extra"] != "1" {
		t.Errorf("parsed %+v", r)
	}
	if strings.Contains(r.String(), "s3cr3t") {
		t.Errorf("String leaks the token: %s", r)
	}
	if !bearer("x").RequireTransportSecurity() {
		t.Error("the bearer token would go over plaintext")
	}
	_, err = ParseRemote("sc://h/;token=s3cr3t;use_ssl=false")
	if err == nil || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("token with use_ssl=false: err = %v", err)
	}
	_, err = ParseRemote("sc://h/;token")
	if err == nil || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("bad param: %v", err)
	}
}

func TestParseRemote(t *testing.T) {
	for _, c := range []struct {
		in, addr string
		ssl      bool
		bad      string
	}{
		{in: "sc://localhost", addr: "localhost:15002"},
		{in: "sc://localhost:1234/", addr: "localhost:1234"},
		{in: "sc://10.0.0.1:15002/;use_ssl=true", addr: "10.0.0.1:15002", ssl: true},
		{in: "sc://[::1]:99;user_id=a", addr: "[::1]:99"},
		{in: "http://localhost", bad: "must start with sc://"},
		{in: "sc://host/path", bad: "a path is not allowed"},
		{in: "sc://host:0", bad: "bad port"},
		{in: "sc://host/;session_id=nope", bad: "not a UUID"},
		{in: "sc://host/;use_ssl=maybe", bad: "want true or false"},
	} {
		r, err := ParseRemote(c.in)
		if c.bad != "" {
			if err == nil || !strings.Contains(err.Error(), c.bad) {
				t.Errorf("%s: err = %v, want %q", c.in, err, c.bad)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if r.Addr() != c.addr || r.UseSSL != c.ssl {
			t.Errorf("%s: addr %s ssl %v", c.in, r.Addr(), r.UseSSL)
		}
	}
}
