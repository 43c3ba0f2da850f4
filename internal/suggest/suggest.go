package suggest

import "strings"

// Distance is the edit distance of two words, case-insensitively: the
// fewest insertions, deletions, substitutions and swaps of two adjacent
// letters that turn one into the other (the optimal string alignment
// distance). A swap counts one, as it is the commonest typing slip: buidl is
// one edit from build, GRUOP one from GROUP.
func Distance(a, b string) int {
	x, y := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	// rows i-2, i-1 and i of the table
	pp := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			c := prev[j-1]
			if x[i-1] != y[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				c = min(c, pp[j-2]+1)
			}
			cur[j] = c
		}
		pp, prev, cur = prev, cur, pp
	}
	return prev[len(y)]
}

// Closest returns the candidate nearest to word, when it is near enough to
// be a likely slip: a third of the word's length in edits, and at least one.
// The first of equally near candidates wins, and a candidate equal to word
// (case aside) is never suggested.
func Closest(word string, candidates []string) (string, bool) {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if strings.EqualFold(c, word) {
			continue
		}
		if d := Distance(word, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best, best != "" && bestD <= limit(word)
}

// limit is how many edits still make a likely slip of word.
func limit(word string) int {
	return max(1, len([]rune(word))/3)
}

// OrList joins the words a diagnostic offers as "a, b or c" ("" for none),
// for its "expected ..." and "want ..." lists and its suggestions.
func OrList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}
