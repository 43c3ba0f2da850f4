package dsl

import (
	"bytes"
	"sort"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/nordisk/thund/ir"
)

// comment is one source comment: its text from the marker to the end of the
// line, trailing whitespace trimmed, and the offset of its marker.
type comment struct {
	offset int
	text   string
}

// scanComments finds the comments of src from its tokens (which end with
// EOF): the text before the first token and between two consecutive tokens
// holds only whitespace and comments, which run from "#" or "--" to the end
// of the line, as the lexer reads them. A "#" or "--" inside a string or a
// back-quoted identifier is part of a token, so it is never looked at.
func scanComments(src []byte, toks []lexer.Token) []comment {
	var out []comment
	from := 0
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) { // a byte order mark
		from = 3
	}
	gap := func(from, to int) {
		to = min(to, len(src))
		for i := from; i < to; {
			c := src[i]
			if c == '#' || c == '-' && i+1 < to && src[i+1] == '-' {
				end := i
				for end < to && src[end] != '\n' {
					end++
				}
				out = append(out, comment{offset: i, text: strings.TrimRight(string(src[i:end]), " \t\r\f\v")})
				i = end
				continue
			}
			i++
		}
	}
	for _, t := range toks {
		gap(from, t.Pos.Offset)
		from = max(from, t.Pos.Offset+len(t.Value))
	}
	gap(from, len(src))
	return out
}

// attachComments gives every comment of the file to p (docs/dsl.md, "Canonical
// form"): those before the header, or before the first declaration of a file
// without a header, go to Pipeline.Doc, as do those between header lines;
// those from the end of the last line of one declaration up to and inside the
// next go to that declaration's Doc (a dataset's own for its inline flow); those after the
// last declaration go to Pipeline.Trailer. owners[i] is the IR node of
// f.Decls[i]: a *ir.Dataset, a *ir.Flow or nil.
func attachComments(p *ir.Pipeline, f *file, owners []any, src []byte, toks []lexer.Token) {
	cs := scanComments(src, toks)
	if len(cs) == 0 {
		return
	}
	// tokenEnd is the end of the line of the last token that starts before
	// offset: a comment after a declaration on its last line is inside it.
	tokenEnd := func(offset int) int {
		i := sort.Search(len(toks), func(i int) bool { return toks[i].Pos.Offset >= offset })
		if i == 0 {
			return 0
		}
		t := toks[i-1]
		end := t.Pos.Offset + len(t.Value)
		if nl := bytes.IndexByte(src[end:], '\n'); nl >= 0 {
			return end + nl
		}
		return len(src)
	}
	eof := toks[len(toks)-1].Pos.Offset
	// starts[i] and ends[i] delimit f.Decls[i]; headerEnd ends the header.
	starts := make([]int, len(f.Decls))
	ends := make([]int, len(f.Decls))
	for i, d := range f.Decls {
		starts[i] = d.Pos.Offset
		if i > 0 {
			ends[i-1] = tokenEnd(d.Pos.Offset)
		}
	}
	if n := len(f.Decls); n > 0 {
		ends[n-1] = tokenEnd(eof)
	}
	headerEnd := -1
	if len(f.Headers) > 0 {
		if len(f.Decls) > 0 {
			headerEnd = tokenEnd(starts[0])
		} else {
			headerEnd = tokenEnd(eof)
		}
	}
	docs := make([]ir.Comments, len(f.Decls))
	for _, c := range cs {
		// i is the last declaration that starts before c.
		i := sort.SearchInts(starts, c.offset+1) - 1
		switch {
		case i < 0 && (headerEnd < 0 || c.offset < headerEnd):
			p.Doc = append(p.Doc, c.text)
		case i < 0 && len(f.Decls) > 0:
			docs[0] = append(docs[0], c.text)
		case i < 0:
			p.Trailer = append(p.Trailer, c.text)
		case c.offset < ends[i]:
			docs[i] = append(docs[i], c.text)
		case i+1 < len(f.Decls):
			docs[i+1] = append(docs[i+1], c.text)
		default:
			p.Trailer = append(p.Trailer, c.text)
		}
	}
	for i, doc := range docs {
		if len(doc) == 0 || i >= len(owners) {
			continue
		}
		switch o := owners[i].(type) {
		case *ir.Dataset:
			o.Doc = append(o.Doc, doc...)
		case *ir.Flow:
			o.Doc = append(o.Doc, doc...)
		}
	}
}
