package dsl

import (
	"runtime"
	"sync"

	"github.com/alecthomas/participle/v2/lexer"
)

// parallelMinDecls is the number of declarations from which a file is
// parsed in parallel: participle parses about 300 KB/s, so a 200-dataset
// file would take longer than `thundc check` may.
const parallelMinDecls = 32

// parseFile parses the whole token stream. Large files are cut at
// declaration starts (declChunks, as error recovery cuts them) into one run
// of declarations per CPU, parsed concurrently and joined in order. Any
// failure, or a header outside the first run, falls back to parsing the
// whole file, so that errors and acceptance are exactly those of one parse.
func parseFile(toks []lexer.Token) (*file, error) {
	workers := runtime.GOMAXPROCS(0)
	chunks := declChunks(toks)
	if workers < 2 || len(chunks) < parallelMinDecls {
		return parseTokens(toks, false)
	}
	// Cut into runs of about equal token counts, at chunk boundaries.
	per := (len(toks) + workers - 1) / workers
	var runs []chunk
	start := 0
	for i, c := range chunks {
		if c.end-start >= per || i == len(chunks)-1 {
			runs = append(runs, chunk{start, c.end})
			start = c.end
		}
	}
	parts := make([]*file, len(runs))
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	for i, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ct := make([]lexer.Token, 0, r.end-r.start+1)
			ct = append(ct, toks[r.start:r.end]...)
			ct = append(ct, lexer.Token{Type: lexer.EOF, Pos: toks[r.end].Pos})
			parts[i], errs[i] = parseTokens(ct, false)
		}()
	}
	wg.Wait()
	for i := range parts {
		if errs[i] != nil || (i > 0 && len(parts[i].Headers) > 0) {
			return parseTokens(toks, false)
		}
	}
	out := parts[0]
	for _, p := range parts[1:] {
		out.Decls = append(out.Decls, p.Decls...)
	}
	return out, nil
}
