package run

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
)

// CheckpointError: the latest commit cannot be resumed from (its record is
// corrupt, or a state object it references is missing or fails its
// checksum), and the run was not allowed to fall back to an older one.
type CheckpointError struct {
	Problems []string
}

func (e *CheckpointError) Error() string {
	return "the latest checkpoint cannot be loaded: " + strings.Join(e.Problems, "; ") +
		"; nothing was run. Run again with --allow-older-checkpoint to resume from the newest older commit whose state verifies (what came after it is computed again)"
}

// chooseHead decides which commit the run resumes from. A state object
// that cannot be read for another reason (permissions, the network) is an
// error of its own: it says nothing about the checkpoint. The latest valid
// record is st.Head; it is used when no newer record failed validation and
// every state object it references verifies. Otherwise, without allowOlder,
// the run stops with a *CheckpointError naming each problem; with it, st.Head
// becomes the newest older commit whose record and state verify (nil when
// none does: the run starts from nothing), and the skipped commits are
// returned, each with why.
func chooseHead(ctx context.Context, wh *warehouse.Warehouse, st *warehouse.State, allowOlder bool) ([]string, error) {
	var problems []string
	for _, inv := range st.Invalid {
		problems = append(problems, "corrupt commit record "+inv)
	}
	head := st.Head
	if head != nil {
		if err := wh.VerifyState(ctx, head); err != nil {
			var se *warehouse.StateError
			if !errors.As(err, &se) || !se.Damaged() {
				return nil, fmt.Errorf("verifying the state of commit epoch %d: %w", head.Epoch, err)
			}
			problems = append(problems, err.Error())
			head = nil
		}
	}
	if len(problems) == 0 {
		return nil, nil
	}
	if !allowOlder {
		return nil, &CheckpointError{Problems: problems}
	}
	if head != nil {
		// Only newer records were corrupt: the latest valid one verifies.
		return problems, nil
	}
	if st.Head == nil {
		return append(problems, "no commit verifies: starting from nothing"), nil
	}
	epochs, err := wh.Epochs(ctx)
	if err != nil {
		return nil, err
	}
	for i := len(epochs) - 1; i >= 0; i-- {
		if epochs[i] >= st.Head.Epoch {
			continue
		}
		c, err := wh.ReadCommit(ctx, epochs[i])
		if errors.Is(err, store.ErrNotExist) {
			continue
		}
		var ie *warehouse.InvalidRecordError
		if errors.As(err, &ie) {
			problems = append(problems, "corrupt commit record "+err.Error())
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := wh.VerifyState(ctx, c); err != nil {
			var se *warehouse.StateError
			if !errors.As(err, &se) || !se.Damaged() {
				return nil, err
			}
			problems = append(problems, err.Error())
			continue
		}
		st.Head = c
		return problems, nil
	}
	st.Head = nil
	return append(problems, "no older commit verifies: starting from nothing"), nil
}
