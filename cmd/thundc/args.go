package main

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/nordisk/thund/internal/suggest"
)

// invocation is a parsed command line: the command, its positional
// arguments and the flags that were set.
type invocation struct {
	cmd   *command
	args  []string
	flags map[string]string // by flagSpec.name; booleans hold "true" or "false"
	help  bool              // -h or --help was given
	// paths is the PATH of a command that takes a pipeline: one .thund
	// file, one or more .sql files, or a project folder. args[0] is its
	// first element; the others are not in args.
	paths []string
}

// parseArgs parses a command's arguments. Flags may come before, between or
// after the positional arguments, with one dash or two (-json, --json), and
// a value either as the next argument or after "=" (--target native,
// --target=native). "--" ends the flags. A later flag overrides an earlier
// one, except that every value of a repeatable flag counts. Every error is a
// usage error.
func parseArgs(c *command, args []string) (*invocation, error) {
	inv := &invocation{cmd: c, flags: map[string]string{}}
	dash := -1 // where "--" stood among the positional arguments
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			dash = len(inv.args)
			inv.args = append(inv.args, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			inv.args = append(inv.args, a) // "-" alone is a path
			continue
		}
		name := strings.TrimPrefix(a[1:], "-")
		name, val, hasVal := strings.Cut(name, "=")
		if name == "h" || name == "help" {
			inv.help = true
			return inv, nil
		}
		f := c.lookupFlag(name)
		if f == nil {
			shown, _, _ := strings.Cut(a, "=")
			var names []string
			for _, f := range c.flags {
				names = append(names, flagName(f.name))
			}
			return nil, usagef("unknown flag %s%s", shown, didYouMean(flagName(name), names))
		}
		if f.arg == "" {
			if hasVal {
				b, err := strconv.ParseBool(val)
				if err != nil {
					return nil, usagef("%s takes no value, or true or false; got %q", flagName(f.name), val)
				}
				val = strconv.FormatBool(b)
			} else {
				val = "true"
			}
		} else if !hasVal {
			if i+1 == len(args) {
				return nil, usagef("%s needs a value%s", flagName(f.name), f.valuesHint())
			}
			i++
			val = args[i]
		}
		if f.values != nil && !slices.Contains(f.values, val) {
			return nil, usagef("bad %s %q%s", flagName(f.name), val, f.valuesHint())
		}
		if prev, ok := inv.flags[f.name]; ok && f.repeat {
			val = prev + "\n" + val
		}
		inv.flags[f.name] = val
	}
	if c.pipeline && len(inv.args) > c.pathArg && (dash < 0 || dash > c.pathArg) {
		inv.paths, inv.args = splitPipelinePaths(inv.args, c.pathArg, dash)
	}
	switch {
	case len(inv.args) < c.minArgs:
		return nil, usagef("missing %s", c.args)
	case len(inv.args) > c.maxArgs:
		return nil, usagef("unexpected argument %q", inv.args[c.maxArgs])
	}
	return inv, nil
}

// splitPipelinePaths takes the pipeline PATH out of args: the argument at
// index at, and when it is a .sql file, every .sql file that follows it
// (before "--", at index dash, or anywhere when dash < 0). It returns the
// paths, and args without the ones after the first.
func splitPipelinePaths(args []string, at, dash int) (paths, rest []string) {
	n := at + 1
	if isSQLPath(args[at]) {
		for n < len(args) && (dash < 0 || n < dash) && isSQLPath(args[n]) {
			n++
		}
	}
	paths = slices.Clone(args[at:n])
	rest = append(slices.Clone(args[:at+1]), args[n:]...)
	return paths, rest
}

// pipelinePaths is the pipeline PATH of a command that takes one.
func (inv *invocation) pipelinePaths() []string {
	if len(inv.paths) > 0 {
		return inv.paths
	}
	return inv.args[inv.cmd.pathArg : inv.cmd.pathArg+1]
}

func isSQLPath(p string) bool { return strings.EqualFold(filepath.Ext(p), ".sql") }

// valuesHint is ": want a, b or c" for a flag with a fixed set of values.
func (f *flagSpec) valuesHint() string {
	if len(f.values) == 0 {
		return ""
	}
	return ": want " + suggest.OrList(f.values)
}

func (c *command) lookupFlag(name string) *flagSpec {
	for i := range c.flags {
		if c.flags[i].name == name || (c.flags[i].short != "" && c.flags[i].short == name) {
			return &c.flags[i]
		}
	}
	return nil
}

// str returns the flag's value, or its default when it was not given.
// strs is every value of a repeatable flag, in command-line order.
func (inv *invocation) strs(name string) []string {
	v, ok := inv.flags[name]
	if !ok {
		return nil
	}
	return strings.Split(v, "\n")
}

func (inv *invocation) str(name string) string {
	if v, ok := inv.flags[name]; ok {
		return v
	}
	if f := inv.cmd.lookupFlag(name); f != nil {
		return f.def
	}
	return ""
}

// isSet reports whether the flag was given on the command line.
func (inv *invocation) isSet(name string) bool {
	_, ok := inv.flags[name]
	return ok
}

// bool returns a boolean flag's value.
func (inv *invocation) bool(name string) bool { return inv.str(name) == "true" }
