package passes

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
)

func TestPassOrder(t *testing.T) {
	index := map[string]int{}
	for i, p := range passes {
		if _, dup := index[p.name]; dup {
			t.Errorf("pass %s is listed twice", p.name)
		}
		index[p.name] = i
	}
	for _, c := range passOrder {
		a, okA := index[c.a]
		b, okB := index[c.b]
		switch {
		case !okA || !okB:
			t.Errorf("constraint %s before %s names an unknown pass", c.a, c.b)
		case a >= b:
			t.Errorf("pass %s must run before %s: %s", c.a, c.b, c.reason)
		case c.reason == "":
			t.Errorf("constraint %s before %s gives no reason", c.a, c.b)
		}
	}
	// Every pass but the first depends on an earlier one.
	for _, p := range passes[1:] {
		found := false
		for _, c := range passOrder {
			found = found || c.b == p.name
		}
		if !found {
			t.Errorf("pass %s has no ordering constraint", p.name)
		}
	}
	if want := []string{"validate", "resolve", "sanity", "capability", "fuse", "plan"}; !slices.Equal(Names(), want) {
		t.Errorf("Names() = %v, want %v", Names(), want)
	}
}

func TestStopAfter(t *testing.T) {
	for i, name := range Names() {
		u, err := Run(clicks(), Options{StopAfter: name, Verify: true})
		if err != nil {
			t.Fatalf("stop after %s: %v", name, err)
		}
		if want := Names()[:i+1]; !slices.Equal(u.Ran, want) {
			t.Errorf("stop after %s ran %v, want %v", name, u.Ran, want)
		}
	}
}

func TestUnknownPassAndTarget(t *testing.T) {
	_, err := Run(clicks(), Options{StopAfter: "typecheck"})
	if err == nil || !strings.Contains(err.Error(), `unknown pass "typecheck" (want one of validate, resolve, sanity, capability, fuse, plan)`) {
		t.Errorf("unknown pass: got %v", err)
	}
	_, err = Run(clicks(), Options{Target: "flink"})
	if err == nil || !strings.Contains(err.Error(), `unknown target "flink"`) {
		t.Errorf("unknown target: got %v", err)
	}
	if _, err := ParseTarget("spark-4.2"); err != nil {
		t.Error(err)
	}
	for _, tg := range Targets() {
		if _, ok := CapabilitiesOf(tg); !ok {
			t.Errorf("target %s has no capabilities", tg)
		}
	}
}

// TestStopsAtFirstFailingPass: a resolve error stops the pipeline after
// resolve, with every resolve diagnostic collected and sorted.
func TestStopsAtFirstFailingPass(t *testing.T) {
	b := newPipeline("p")
	bids(b)
	b.mv("m1", sel(scan("bids"), "nope"))
	b.mv("m2", sel(scan("bids"), call("nope", c("price"))))
	b.mv("m3", groupBy(stream("bids"), items("auction"), countStar())) // a sanity error, never reached
	u, err := Run(b.p, Options{Verify: true})
	if err == nil {
		t.Fatal("no error")
	}
	if !slices.Equal(u.Ran, []string{"validate", "resolve"}) {
		t.Errorf("ran %v", u.Ran)
	}
	if len(u.Diags) != 2 || !sortedDiags(u.Diags) {
		t.Errorf("want 2 sorted diagnostics, got:\n%s", u.Diags.Error())
	}
	if err.Error() != u.Diags.Error() {
		t.Errorf("error %q is not the diagnostics", err)
	}
	// validate errors stop before resolve
	b = newPipeline("p")
	bids(b)
	bids(b)
	u, err = Run(b.p, Options{})
	if err == nil || !slices.Equal(u.Ran, []string{"validate"}) || u.Diags[0].Code != ir.CodeDuplicateName {
		t.Errorf("duplicate dataset: ran %v, err %v", u.Ran, err)
	}
}

// TestWarningsDoNotStop: only errors stop the pipeline.
func TestWarningsDoNotStop(t *testing.T) {
	u := newUnit(clicks(), Options{Target: Native})
	warn := pass{name: "warn", fn: func(u *Unit) { u.Diags.Warn(ir.Pos{}, ir.CodeBadEmit, "just saying") }}
	if err := u.run(append([]pass{warn}, passes...)); err != nil {
		t.Fatal(err)
	}
	if len(u.Ran) != len(passes)+1 {
		t.Errorf("ran %v", u.Ran)
	}
}

func TestPanicNamesPass(t *testing.T) {
	for _, v := range []any{"boom", fmt.Errorf("wrapped")} {
		u := newUnit(clicks(), Options{Target: Native})
		list := []pass{passes[0], {name: "resolve", fn: func(*Unit) { panic(v) }}}
		func() {
			defer func() {
				r := recover()
				msg := fmt.Sprint(r)
				if !strings.HasPrefix(msg, "pass resolve: ") {
					t.Errorf("panic %q does not name the pass", msg)
				}
				if _, isErr := v.(error); isErr {
					if _, ok := r.(error); !ok {
						t.Errorf("an error panic became %T", r)
					}
				}
			}()
			u.run(list)
			t.Error("no panic")
		}()
	}
}

func TestVerify(t *testing.T) {
	mutate := pass{name: "mutate", fn: func(u *Unit) { u.Pipeline.Datasets[0].Comment = "changed" }}
	lazy := pass{name: "resolve", fn: func(u *Unit) {}} // claims to be resolve, records nothing
	for _, tc := range []struct {
		name string
		list []pass
		want string
	}{
		{"a pass that changes the IR", []pass{passes[0], mutate}, "verify after pass mutate: the pass modified the IR"},
		{"a resolve that records nothing", []pass{passes[0], lazy}, "verify after pass resolve: dataset clicks has no resolved schema"},
		{"a fuse that records nothing", append(slices.Clone(passes[:4]), pass{name: "fuse", fn: func(*Unit) {}}), "verify after pass fuse: flow clean_clicks has no stages"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := newUnit(clicks(), Options{Target: Native, Verify: true})
			err := u.run(tc.list)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
	// Verify off: the same broken pass goes unnoticed.
	u := newUnit(clicks(), Options{Target: Native})
	if err := u.run([]pass{passes[0], mutate}); err != nil {
		t.Errorf("without Verify: %v", err)
	}
}

func TestVerifySharedNode(t *testing.T) {
	b := newPipeline("p")
	bids(b)
	shared := gt(c("price"), i("1"))
	b.mv("m1", where(scan("bids"), shared))
	b.mv("m2", where(scan("bids"), shared))
	_, err := Run(b.p, Options{Verify: true})
	if err == nil || !strings.Contains(err.Error(), "is shared by two parents") {
		t.Errorf("got %v", err)
	}
}

// TestPassesDoNotModifyIR runs every pass with Verify on the examples.
func TestPassesDoNotModifyIR(t *testing.T) {
	for _, tg := range Targets() {
		p := clicks()
		before := snapshot(p)
		Run(p, Options{Target: tg, Verify: true})
		if string(before) != string(snapshot(p)) {
			t.Errorf("%s: the passes changed the IR", tg)
		}
	}
}
