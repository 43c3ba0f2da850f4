package main

import (
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/nordisk/thund/sparkemit/sparktest"
)

// cmdSparkServer is the script command
//
//	sparkserver [result-first] [fail-run MESSAGE...] [fail-on COMMAND]
//
// which starts the in-process Spark Connect server (sparkemit/sparktest) in
// the test process for the rest of the script and sets $SPARK_REMOTE to its
// connection string (sc://127.0.0.1:PORT). result-first sends StartRun's
// command result before the events; fail-run ends StartRun with an
// INTERNAL error carrying MESSAGE; fail-on refuses the first request whose
// command starts with COMMAND (define_flow, ...).
func cmdSparkServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! sparkserver")
	}
	s := &sparktest.Server{}
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "result-first":
			s.ResultFirst = true
		case "fail-run":
			s.FailRun = status.Error(codes.Internal, strings.Join(args[i+1:], " "))
			i = len(args)
		case "fail-on":
			if i+1 == len(args) {
				ts.Fatalf("sparkserver: fail-on needs a command")
			}
			s.FailOn = args[i+1]
			i++
		default:
			ts.Fatalf("sparkserver: unknown argument %q", args[i])
		}
	}
	s, err := sparktest.Start(s)
	if err != nil {
		ts.Fatalf("sparkserver: %v", err)
	}
	ts.Defer(s.Stop)
	ts.Setenv("SPARK_REMOTE", "sc://"+s.Addr)
	ts.Setenv("SPARK_ADDR", s.Addr)
}
