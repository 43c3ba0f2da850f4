package etl

import (
	"errors"
	"strings"
	"testing"
)

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{
		"512MiB": 512 << 20, "512mib": 512 << 20, "2GB": 2_000_000_000, "1.5GiB": 3 << 29,
		"300B": 300, "4096": 4096, "64k": 64 << 10, " 10 MB ": 10_000_000,
	} {
		if got, err := ParseBytes(in); err != nil || got != want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "lots", "12XB", "MiB", "0", "0.1B", "-5MiB"} {
		if got, err := ParseBytes(in); err == nil {
			t.Errorf("ParseBytes(%q) = %d, want an error", in, got)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{300: "300B", 2 << 20: "2MiB", 3 << 29: "1.5GiB", 1536: "1.5KiB"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// Grow fails once the accounted total passes the limit, naming the operator.
func TestGrowLimit(t *testing.T) {
	fc := NewFlowContext(t.Context(), nil, 1, nil, nil, nil, nil)
	if err := fc.Grow("join at p.thund:3:5 (its build side)", 1<<40); err != nil {
		t.Fatalf("no budget: Grow failed: %v", err)
	}
	fc.budget = &memBudget{limit: 1000}
	if err := fc.Grow("join at p.thund:3:5 (its build side)", 600); err != nil {
		t.Fatalf("600 of 1000: %v", err)
	}
	err := fc.Grow("join at p.thund:3:5 (its build side)", 600)
	var me *MemoryLimitError
	if !errors.As(err, &me) || me.Used != 1200 || me.Limit != 1000 {
		t.Fatalf("1200 of 1000: got %v, want a MemoryLimitError", err)
	}
	if !strings.Contains(err.Error(), "join at p.thund:3:5 (its build side) needs more than --memory-limit 1000B") {
		t.Errorf("message %q does not name the operator and the limit", err)
	}
}

// Hold replaces what an operator accounted before: state that shrinks gives
// its bytes back, and moves smaller than GrowStep are not handed to Grow.
func TestHold(t *testing.T) {
	fc := NewFlowContext(t.Context(), nil, 1, nil, nil, nil, nil)
	fc.budget = &memBudget{limit: 1000}
	fc.GrowStep = 100
	op := "group by at p.thund:9:5 (its open windows)"
	var was int64
	if err := fc.Hold(op, &was, 50); err != nil || was != 0 || fc.budget.used.Load() != 0 {
		t.Fatalf("50 bytes, under a step: %v, was %d, used %d", err, was, fc.budget.used.Load())
	}
	if err := fc.Hold(op, &was, 900); err != nil || was != 900 || fc.budget.used.Load() != 900 {
		t.Fatalf("900 bytes: %v, was %d, used %d", err, was, fc.budget.used.Load())
	}
	if err := fc.Hold(op, &was, 200); err != nil || fc.budget.used.Load() != 200 {
		t.Fatalf("evicted down to 200: %v, used %d", err, fc.budget.used.Load())
	}
	err := fc.Hold(op, &was, 1100)
	var me *MemoryLimitError
	if !errors.As(err, &me) || me.Operator != op || me.Used != 1100 {
		t.Fatalf("1100 of 1000: got %v, want a MemoryLimitError naming %s", err, op)
	}
}

// GrowSpilling lets a spilling operator's values that cannot spill take
// the flow past the limit, up to twice it; TryGrow refuses past the limit
// and accounts nothing.
func TestGrowSpilling(t *testing.T) {
	fc := NewFlowContext(t.Context(), nil, 1, nil, nil, nil, nil)
	fc.budget = &memBudget{limit: 1000}
	op := "collect_list at p.thund:4:40"
	if !fc.TryGrow(900) || fc.TryGrow(200) || fc.budget.used.Load() != 900 {
		t.Fatalf("TryGrow: used %d, want 900 after 900 admitted and 200 refused", fc.budget.used.Load())
	}
	if err := fc.GrowSpilling(op, 1000); err != nil {
		t.Fatalf("1900 of twice 1000: %v", err)
	}
	err := fc.GrowSpilling(op, 200)
	var me *MemoryLimitError
	if !errors.As(err, &me) || me.Operator != op || me.Used != 2100 {
		t.Fatalf("2100 of twice 1000: got %v, want a MemoryLimitError naming %s", err, op)
	}
}
