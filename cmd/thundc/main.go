package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// Exit statuses.
const (
	exitOK    = 0 // success
	exitDiags = 1 // the pipeline has errors, the input cannot be read, or thundc has a bug
	exitUsage = 2 // the command line is wrong
)

func main() {
	// thundc is short-lived and allocates mostly parse trees: trade a little
	// memory for less collection, unless the user set GOGC.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// cli is one invocation's standard streams.
type cli struct {
	stdin  io.Reader // unused until a command reads standard input
	stdout io.Writer
	stderr io.Writer
}

// runners maps each command of the table in help.go to its implementation.
// A test checks that the two list the same commands.
var runners = map[string]func(c *cli, inv *invocation) int{
	"check":   runCheck,
	"fmt":     runFmt,
	"explain": runExplain,
	"graph":   runGraph,
	"build":   runBuild,
	"run":     runRun,
	"spark":   runSpark,
	"version": runVersion,
	"help":    runHelp,
}

// run executes thundc with args (without the program name) and returns the
// exit status. It touches nothing global besides the files the command names.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	c := &cli{stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		// A panic would exit 2, which means usage; report a compiler bug
		// as a failure, with the stack (passes name the pass in theirs).
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "thundc: internal error: %v\n\n%s", r, debug.Stack())
			status = exitDiags
		}
	}()
	if len(args) == 0 {
		fmt.Fprintln(stderr, "thundc: no command")
		fmt.Fprintln(stderr, topUsageHint)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		writeTopHelp(stdout)
		return exitOK
	}
	cmd := lookupCommand(name)
	if cmd == nil {
		if len(name) > 0 && name[0] == '-' {
			fmt.Fprintf(stderr, "thundc: flag %s before the command: flags follow the command name\n", name)
		} else {
			fmt.Fprintf(stderr, "thundc: unknown command %q%s\n", name, didYouMean(name, commandNames()))
		}
		fmt.Fprintln(stderr, topUsageHint)
		return exitUsage
	}
	inv, err := parseArgs(cmd, args[1:])
	if err != nil {
		return fail(c, cmd, err)
	}
	if inv.help {
		writeCommandHelp(stdout, cmd)
		return exitOK
	}
	return runners[cmd.name](c, inv)
}

// usageError is a command line the command cannot run.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// fail prints err and the command's one-line usage hint to stderr,
// and returns the exit status: 2 for a usage error, 1 for anything else.
func fail(c *cli, cmd *command, err error) int {
	fmt.Fprintf(c.stderr, "thundc %s: %s\n", cmd.name, printable(err.Error(), false))
	var ue *usageError
	if !errors.As(err, &ue) {
		return exitDiags
	}
	fmt.Fprintf(c.stderr, "usage: %s (run 'thundc help %s' for details)\n", cmd.usage(), cmd.name)
	return exitUsage
}
