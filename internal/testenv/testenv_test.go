package testenv

import (
	"strings"
	"testing"
)

func TestUpdate(t *testing.T) {
	t.Setenv("THUNDC_UPDATE", "")
	if Update() && !*update {
		t.Error("Update() with THUNDC_UPDATE empty and no -update")
	}
	t.Setenv("THUNDC_UPDATE", "1")
	if !Update() {
		t.Error("Update() false with THUNDC_UPDATE=1")
	}
}

func TestGoEnv(t *testing.T) {
	got := map[string]bool{}
	for _, kv := range GoEnv() {
		k, _, ok := strings.Cut(kv, "=")
		if !ok {
			t.Errorf("GoEnv: %q is not KEY=VALUE", kv)
		}
		got[k] = true
	}
	for _, k := range goEnvNames {
		if !got[k] {
			t.Errorf("GoEnv lacks %s", k)
		}
	}
}
