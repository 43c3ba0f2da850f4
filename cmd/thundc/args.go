package main

import (
	"slices"
	"strconv"
	"strings"
)

// invocation is a parsed command line: the command, its positional
// arguments and the flags that were set.
type invocation struct {
	cmd   *command
	args  []string
	flags map[string]string // by flagSpec.name; booleans hold "true" or "false"
	help  bool              // -h or --help was given
}

// parseArgs parses a command's arguments. Flags may come before, between or
// after the positional arguments, with one dash or two (-json, --json), and
// a value either as the next argument or after "=" (--target native,
// --target=native). "--" ends the flags. A later flag overrides an earlier
// one. Every error is a usage error.
func parseArgs(c *command, args []string) (*invocation, error) {
	inv := &invocation{cmd: c, flags: map[string]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
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
			return nil, usagef("unknown flag %s", shown)
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
		inv.flags[f.name] = val
	}
	switch {
	case len(inv.args) < c.minArgs:
		return nil, usagef("missing %s", c.args)
	case len(inv.args) > c.maxArgs:
		return nil, usagef("unexpected argument %q", inv.args[c.maxArgs])
	}
	return inv, nil
}

// valuesHint is ": want a, b or c" for a flag with a fixed set of values.
func (f *flagSpec) valuesHint() string {
	n := len(f.values)
	switch n {
	case 0:
		return ""
	case 1:
		return ": want " + f.values[0]
	}
	return ": want " + strings.Join(f.values[:n-1], ", ") + " or " + f.values[n-1]
}

func (c *command) lookupFlag(name string) *flagSpec {
	for i := range c.flags {
		if c.flags[i].name == name {
			return &c.flags[i]
		}
	}
	return nil
}

// str returns the flag's value, or its default when it was not given.
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
