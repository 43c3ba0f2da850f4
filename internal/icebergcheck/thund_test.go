package icebergcheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nordisk/thund/internal/testenv"
)

// TestThund: a pipeline's executable reads its datasets back, the current
// version and an older one, in canonical form.
func TestThund(t *testing.T) {
	if testing.Short() {
		t.Skip("builds thundc and a pipeline")
	}
	work := t.TempDir()
	thundc, err := testenv.Thundc("../..")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(work, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("p.thund", `pipeline icebergcheck_thund

source src from csv "data/in.csv" options ("header" = "true") {
  id int64, name string, price decimal(10, 2), at timestamp(us, "UTC")
}

materialized view items =
  from src
  | select id, name, price, at, price * 2 as twice
`)
	write("data/in.csv", "id,name,price,at\n1,\"a,b\",1.50,2024-01-31 13:04:05.000001\n2,,-0.25,\n")
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "THUND_CACHE="+testenv.ThundCache())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	etl, wh := filepath.Join(work, "etl"), filepath.Join(work, "wh")
	run(thundc, "build", "p.thund", "-o", etl)
	run(etl, "run", "--warehouse", wh)
	write("data/in.csv", "id,name,price,at\n1,\"a,b\",1.50,2024-01-31 13:04:05.000001\n2,,-0.25,\n3,c,0,1969-12-31 23:59:59\n")
	run(etl, "run", "--warehouse", wh)

	first := []Row{
		{"1", `"a,b"`, "1.50", "2024-01-31T13:04:05.000001Z", "3.00"},
		{"2", "NULL", "-0.25", "NULL", "-0.50"},
	}
	want := &Result{Reader: "by hand", Table: Table{Columns: []string{"id", "name", "price", "at", "twice"}}}
	want.Rows = first
	v1 := Thund(t, etl, wh, "items", 1)
	Equal(t, "version 1", want, v1)
	want.Rows = append(first, Row{"3", `"c"`, "0.00", "1969-12-31T23:59:59.000000Z", "0.00"})
	Equal(t, "the current version", want, Thund(t, etl, wh, "items", 0))
	Equal(t, "version 2", want, Thund(t, etl, wh, "items", 2))
	if strings.Join(v1.Types, " ") != strings.Join(v1.ArrowTypes, " ") || v1.Types[3] != "timestamp[us,utc]" {
		t.Errorf("types %v, want the Arrow types, at timestamp[us,utc]", v1.Types)
	}
}
