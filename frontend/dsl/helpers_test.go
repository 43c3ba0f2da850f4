package dsl

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/nordisk/thund/ir"
)

// checkRoundTrip checks the properties every parsed pipeline has: printing
// and parsing again gives an Equal pipeline and the same text, JSON round-trips,
// and every node has a valid position in file.
func checkRoundTrip(t testing.TB, file string, p *ir.Pipeline) {
	t.Helper()
	if err := roundTrip(file, p); err != nil {
		t.Fatal(err)
	}
}

func roundTrip(file string, p *ir.Pipeline) error {
	text := ir.Print(p)
	p2, diags := Parse(file, text)
	if diags != nil {
		return fmt.Errorf("printed text does not parse: %v\n%s", diags, text)
	}
	if !ir.Equal(p, p2) {
		return fmt.Errorf("Parse(Print(p)) differs from p: %s\n%s", ir.Diff(p, p2), text)
	}
	if text2 := ir.Print(p2); string(text2) != string(text) {
		return fmt.Errorf("printing is not idempotent:\n%s\n----\n%s", text, text2)
	}
	js, err := ir.MarshalJSON(p)
	if err != nil {
		return fmt.Errorf("MarshalJSON: %v", err)
	}
	p3, err := ir.UnmarshalJSON(js)
	if err != nil {
		return fmt.Errorf("UnmarshalJSON: %v\n%s", err, js)
	}
	if !ir.Equal(p, p3) {
		return fmt.Errorf("JSON round trip differs: %s", ir.Diff(p, p3))
	}
	if bad := badPositions(file, p); len(bad) > 0 {
		return fmt.Errorf("nodes without a valid position: %v", bad)
	}
	return nil
}

var (
	posType     = reflect.TypeFor[ir.Pos]()
	datasetType = reflect.TypeFor[ir.Dataset]()
)

// badPositions walks every node of p and lists the paths of positions that
// are not valid or not in file.
func badPositions(file string, p *ir.Pipeline) []string {
	var bad []string
	var walk func(path string, v reflect.Value)
	walk = func(path string, v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(path, v.Elem())
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
			}
		case reflect.Struct:
			if v.Type() == posType {
				pos := v.Interface().(ir.Pos)
				if !pos.IsValid() || pos.File != file || pos.Col < 1 {
					bad = append(bad, fmt.Sprintf("%s=%v", path, pos))
				}
				return
			}
			for i := 0; i < v.NumField(); i++ {
				name := v.Type().Field(i).Name
				if v.Type() == datasetType && name == "FormatPos" && v.FieldByName("Format").String() == "" {
					continue // no format clause, no position of one
				}
				walk(path+"."+name, v.Field(i))
			}
		}
	}
	walk("pipeline", reflect.ValueOf(p))
	return bad
}
