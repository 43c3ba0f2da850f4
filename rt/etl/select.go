package etl

import (
	"fmt"
	"sort"
	"strings"
)

// selection is what the selection flags of run and plan chose.
//
//   - --select SPEC,...: a union of NAME, +NAME (with its ancestors), NAME+
//     (with its descendants) and +NAME+;
//   - --refresh N,...: these are selected and refreshed even when fresh;
//   - --full-refresh N,...: these are selected, cleared (a new, empty
//     version; stream offsets reset) and recomputed;
//   - --full-refresh-all: every selected dataset is fully refreshed.
//
// Without --select, --refresh or --full-refresh every dataset is selected
// (as in Spark Declarative Pipelines, naming datasets to refresh limits the
// run to them). A dataset that is not selected is left as it is, even when
// stale; `plan` says so.
type selection struct {
	all     bool
	names   map[string]bool
	refresh map[string]bool
	full    map[string]bool
}

func (s *selection) has(name string) bool { return s == nil || s.all || s.names[name] }

// settled is the selection once its refreshes are done: the same datasets,
// none refreshed again (the epochs after the first of --follow or of a
// --once run split by --max-files-per-epoch).
func (s *selection) settled() *selection {
	if s == nil {
		return nil
	}
	return &selection{all: s.all, names: s.names, refresh: map[string]bool{}, full: map[string]bool{}}
}

// graph is the pipeline's dependency graph.
type graph struct {
	order    []string
	kinds    map[string]Kind
	parents  map[string][]string
	children map[string][]string
}

func newGraph(p *Pipeline) *graph {
	g := &graph{kinds: map[string]Kind{}, parents: map[string][]string{}, children: map[string][]string{}}
	for _, d := range p.Datasets {
		g.order = append(g.order, d.Name)
		g.kinds[d.Name] = d.Kind
		seen := map[string]bool{}
		for _, f := range d.Flows {
			for _, in := range f.Inputs {
				if !seen[in.Name] {
					seen[in.Name] = true
					g.parents[d.Name] = append(g.parents[d.Name], in.Name)
					g.children[in.Name] = append(g.children[in.Name], d.Name)
				}
			}
		}
	}
	return g
}

// walk adds name and everything reachable through next to out.
func walk(name string, next map[string][]string, out map[string]bool) {
	if out[name] {
		return
	}
	out[name] = true
	for _, n := range next[name] {
		walk(n, next, out)
	}
}

// validNames lists the pipeline's dataset names for messages.
func (g *graph) validNames(ok func(Kind) bool) string {
	var names []string
	for _, n := range g.order {
		if ok == nil || ok(g.kinds[n]) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// splitList splits comma-separated flag values, trimming spaces; an empty
// entry is an error.
func splitList(flag string, values []string) ([]string, error) {
	var out []string
	for _, v := range values {
		for _, s := range strings.Split(v, ",") {
			s = strings.TrimSpace(s)
			if s == "" {
				return nil, fmt.Errorf("--%s: empty name in %q", flag, v)
			}
			out = append(out, s)
		}
	}
	return out, nil
}

// parseSelection builds the selection from the flags' values. Every error
// is a usage error naming the valid names.
func parseSelection(g *graph, selects, refresh, full []string, fullAll bool) (*selection, error) {
	s := &selection{names: map[string]bool{}, refresh: map[string]bool{}, full: map[string]bool{}}
	specs, err := splitList("select", selects)
	if err != nil {
		return nil, err
	}
	for _, spec := range specs {
		name := strings.TrimSuffix(strings.TrimPrefix(spec, "+"), "+")
		if _, ok := g.kinds[name]; !ok || name == "" {
			return nil, fmt.Errorf("--select %s: no dataset %q in this pipeline (it has: %s)", spec, name, g.validNames(nil))
		}
		s.names[name] = true
		if strings.HasPrefix(spec, "+") {
			for _, n := range g.parents[name] {
				walk(n, g.parents, s.names)
			}
		}
		if strings.HasSuffix(spec, "+") {
			for _, n := range g.children[name] {
				walk(n, g.children, s.names)
			}
		}
	}
	for _, l := range []struct {
		flag   string
		values []string
		into   map[string]bool
	}{{"refresh", refresh, s.refresh}, {"full-refresh", full, s.full}} {
		names, err := splitList(l.flag, l.values)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			k, ok := g.kinds[n]
			if !ok {
				return nil, fmt.Errorf("--%s %s: no dataset %q in this pipeline (it can refresh: %s)", l.flag, n, n, g.validNames(buildable))
			}
			if !buildable(k) {
				return nil, fmt.Errorf("--%s %s: %s is a %s, which is not refreshed (it can refresh: %s)", l.flag, n, n, k, g.validNames(buildable))
			}
			l.into[n] = true
			s.names[n] = true
		}
	}
	s.all = len(s.names) == 0
	if fullAll {
		for _, n := range g.order {
			if buildable(g.kinds[n]) && s.has(n) {
				s.full[n] = true
			}
		}
	}
	for n := range s.full {
		delete(s.refresh, n)
	}
	return s, nil
}
