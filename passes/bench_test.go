package passes

import (
	"fmt"
	"testing"

	"github.com/nordisk/thund/frontend/dsl"
	"github.com/nordisk/thund/ir"
)

// big builds a pipeline of n datasets: a tenth of them sources (half of
// those watermarked streams), the rest in rotation streaming chains,
// stream-static joins, aggregates, windowed aggregates with expectations,
// and materialized views with joins, expressions and a sort.
func big(n int) *ir.Pipeline {
	b := newPipeline("big")
	nsrc := max(n/10, 2)
	for k := range nsrc {
		if k%2 == 0 {
			b.source(fmt.Sprintf("src%d", k), true, wm("ts", "5s"),
				"id int64 not null", "price decimal(10,2)", "name string", "ts timestamp(ms) not null")
		} else {
			b.source(fmt.Sprintf("dim%d", k), false, nil, "id int64 not null", "country string", "weight float64")
		}
	}
	var chains, views []string
	for k := nsrc; k < n; k++ {
		src := fmt.Sprintf("src%d", (k%(nsrc/2))*2)
		dim := fmt.Sprintf("dim%d", (k%(nsrc/2))*2+1)
		name := fmt.Sprintf("d%d", k)
		switch k % 5 {
		case 0: // a streaming chain
			b.st(name, sel(where(stream(src), and(gt(c("price"), dec("1.50")), &ir.IsNull{Pos: at(), X: c("name"), Not: true})),
				"id", as(bin(ir.OpMul, c("price"), i("2")), "price"), as(call("upper", c("name")), "name"), "ts"))
			chains = append(chains, name)
		case 1: // a stream-static join
			b.st(name, sel(join(ir.JoinLeft, aliased(stream(src), "s"), aliased(scan(dim), "d"), eq(c("s.id"), c("d.id"))),
				c("s.id"), "price", as(call("coalesce", c("country"), str("?")), "country"), "ts"))
		case 2: // a windowed aggregate over a chain, with an expectation
			in := src
			if len(chains) > 0 {
				in = chains[len(chains)-1]
			}
			d, f := b.st(name, groupBy(tumble(stream(in), c("ts"), "1m"), items("id", "window_start"),
				as(call("sum", c("price")), "total"), as(countStar(), "n"), as(call("max", c("ts")), "last")))
			d.Expectations = []*ir.Expectation{{Pos: at(), Name: "positive", Cond: gt(c("n"), i("0")), Action: ir.ActDrop}}
			f.Emit = ir.EmitOnWindowClose
		case 3: // a batch aggregate over a snapshot
			in := src
			if len(chains) > 0 {
				in = chains[len(chains)-1]
			}
			b.mv(name, where(groupBy(scan(in), items("id"), as(call("avg", c("price")), "avg_price"), as(countStar(), "n")),
				gt(c("n"), i("1"))))
			views = append(views, name)
		case 4: // a materialized view joining two views, with expressions and a sort
			l, r := src, dim
			if len(views) >= 1 {
				l = views[len(views)-1]
			}
			q := join(ir.JoinInner, aliased(scan(l), "a"), aliased(scan(r), "b"), nil, "id")
			b.mv(name, orderBy(sel(q, "id",
				as(&ir.Case{Pos: at(), Whens: []*ir.When{{Pos: at(), Cond: gt(c("id"), i("100")), Then: str("big")}}, Else: str("small")}, "size"),
				as(cast(c("id"), "string"), "label")), c("id")))
		}
	}
	return b.p
}

func TestBig(t *testing.T) {
	p := big(200)
	if len(p.Datasets) != 200 {
		t.Fatalf("%d datasets", len(p.Datasets))
	}
	mustRun(t, p, Options{StopAfter: "fuse"}) // the native plan refuses its decimal sums over streams
}

// BenchmarkCheck200 runs every pass over a 200-dataset pipeline; it must
// stay well under 100 ms per op.
func BenchmarkCheck200(b *testing.B) {
	p := big(200)
	if _, err := Run(p, Options{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(p, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck200Passes times the pipeline up to each pass.
func BenchmarkCheck200Passes(b *testing.B) {
	p := big(200)
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(p, Options{StopAfter: name}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCheck200Text is `thundc check` on a generated 200-dataset
// pipeline, as text: parse, then every pass. It must stay under 100 ms per op.
func BenchmarkCheck200Text(b *testing.B) {
	src := ir.Print(big(200))
	for b.Loop() {
		p, diags := dsl.Parse("big.thund", src)
		if diags.HasErrors() {
			b.Fatal(diags)
		}
		if _, err := Run(p, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
