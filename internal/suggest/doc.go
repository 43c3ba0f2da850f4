// Package suggest finds the word a misspelled one most likely meant, for the
// "did you mean ...?" of a diagnostic: a column, a function, a keyword, a
// subcommand. It is the one edit distance of the module; the frontends, the
// passes and the command line all use it. It knows nothing of what the words
// are.
package suggest
