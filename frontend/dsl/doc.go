// Package dsl parses the .thund language (docs/dsl.md) into ir.
//
// It owns the text → IR direction only; the way back is ir.Print, and the
// two are kept lossless by tests: for any text Parse accepts,
// Parse(ir.Print(Parse(x))) is ir.Equal to Parse(x), and canonical text
// prints back byte for byte.
//
// The pieces, in the order a file goes through them:
//   - lexer.go: a hand-written lexer (tokens, byte-based columns, and the
//     lexical errors: bad characters, unterminated quotes, bad escapes,
//     malformed durations, literals out of range). Reserved words come from
//     ir.ReservedWords, the table the printer quotes by.
//   - grammar.go: the participle/v2 grammar, one struct per production, each
//     with a Pos that the lowering copies into the IR.
//   - lower.go: syntax tree → ir.Pipeline, with the checks the grammar
//     cannot make (duplicate clauses, types, timestamps, stars).
//   - errors.go: participle's errors in plain words ("unexpected X, expected
//     Y"), and recovery: a file that does not parse is cut into declarations
//     so that every broken declaration reports its error.
//   - coverage.go: Productions and Covered, for the repository's grammar
//     coverage test.
//
// The package must not import anything of the module but ir, and it does
// no resolution: names, types of expressions and dataset references are the
// passes' business.
package dsl
