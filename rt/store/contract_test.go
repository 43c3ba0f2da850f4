package store_test

import (
	"testing"

	"github.com/nordisk/thund/internal/storetest"
	"github.com/nordisk/thund/rt/store"
)

func TestLocalContract(t *testing.T) {
	l, err := store.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	storetest.Contract(t, l, 3<<20)
}
