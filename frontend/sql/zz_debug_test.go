package sql

import (
	"fmt"
	"os"
	"testing"

	"github.com/nordisk/thund/ir"
)

func TestDebug(t *testing.T) {
	src, _ := os.ReadFile(os.Getenv("SQLFILE"))
	p, d := Parse([]File{{Name: "t.sql", Src: src}})
	for _, x := range d {
		fmt.Println(x.Error())
	}
	if p != nil {
		if os.Getenv("JSON") != "" {
			b, _ := ir.MarshalJSON(p)
			fmt.Println(stripPos(string(b)))
		} else {
			fmt.Println(string(ir.Print(p)))
		}
	}
}

func stripPos(s string) string {
	var out []byte
	lines := []byte(s)
	_ = lines
	skip := 0
	for _, ln := range splitLines(s) {
		if skip > 0 {
			skip--
			if ln == "" {
				continue
			}
			continue
		}
		if containsStr(ln, `"pos": {`) {
			skip = 5
			continue
		}
		out = append(out, ln...)
		out = append(out, '\n')
	}
	return string(out)
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func containsStr(a, b string) bool {
	for i := 0; i+len(b) <= len(a); i++ {
		if a[i:i+len(b)] == b {
			return true
		}
	}
	return false
}
