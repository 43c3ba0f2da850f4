package passes

import (
	"fmt"
	"strconv"
)

// FormatPiece is one piece of a java.util.Formatter format string as
// format_string / printf run it natively: literal text, or a specifier
// %[index$][-|0][width](s|S|d). The plan pass refuses what else Java's
// Formatter would accept (parseJavaFormat).
type FormatPiece struct {
	Text  string // a literal piece (Arg < 0)
	Arg   int    // the 0-based argument, -1 for text
	Left  bool   // '-': padded on the right
	Zero  bool   // '0': a number padded with zeros after its sign
	Width int
	Conv  byte // 's', 'S' or 'd'
}

// ParseJavaFormat parses a constant format for n arguments whose types
// are args: an error names the first specifier the native runtime does not
// run, or one Java would reject (a missing argument, %d of a string).
func ParseJavaFormat(f string, args []bool) ([]FormatPiece, error) {
	var out []FormatPiece
	text := ""
	next := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			text += f[i : i+1]
			continue
		}
		start := i
		i++
		if i >= len(f) {
			return nil, fmt.Errorf("a '%%' ending the format")
		}
		switch f[i] {
		case '%':
			text += "%"
			continue
		case 'n':
			text += "\n"
			continue
		}
		p := FormatPiece{Arg: -1}
		j := i
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		if j < len(f) && f[j] == '$' && j > i {
			n, _ := strconv.Atoi(f[i:j])
			p.Arg = n - 1
			i = j + 1
		}
		for ; i < len(f) && (f[i] == '-' || f[i] == '0'); i++ {
			p.Left = p.Left || f[i] == '-'
			p.Zero = p.Zero || f[i] == '0'
		}
		j = i
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		p.Width, _ = strconv.Atoi(f[i:j])
		i = j
		if i >= len(f) {
			return nil, fmt.Errorf("the unfinished specifier %q", f[start:])
		}
		p.Conv = f[i]
		spec := f[start : i+1]
		switch {
		case p.Conv != 's' && p.Conv != 'S' && p.Conv != 'd':
			return nil, fmt.Errorf("the specifier %q (only %%s, %%S and %%d, with - or 0 and a width, are supported)", spec)
		case p.Left && p.Zero, p.Zero && p.Conv != 'd', p.Left && p.Width == 0, p.Zero && p.Width == 0:
			return nil, fmt.Errorf("the specifier %q, whose flags Java rejects", spec)
		}
		if p.Arg < 0 {
			p.Arg = next
			next++
		}
		if p.Arg >= len(args) {
			return nil, fmt.Errorf("the specifier %q with no argument for it", spec)
		}
		if p.Conv == 'd' && !args[p.Arg] {
			return nil, fmt.Errorf("the specifier %q of an argument that is not an integer", spec)
		}
		if text != "" {
			out = append(out, FormatPiece{Text: text, Arg: -1})
			text = ""
		}
		out = append(out, p)
	}
	if text != "" {
		out = append(out, FormatPiece{Text: text, Arg: -1})
	}
	return out, nil
}
