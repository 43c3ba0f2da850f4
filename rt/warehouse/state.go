package warehouse

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/nordisk/thund/rt/store"
)

// StateRef is what a commit's state map holds for a state snapshot object
// written by Txn.WriteState: the object's name, size and sha256. Other
// fields a caller adds to the entry (a fingerprint, counters) are kept
// beside these; ReadState looks only at these three.
type StateRef struct {
	Object string `json:"object"`
	SHA256 string `json:"sha256,omitempty"` // hex; empty in records older than checksums
	Bytes  *int64 `json:"bytes,omitempty"`
}

// ErrNoState is wrapped by ReadState when the commit has no state entry
// under the key (or no commit at all).
var ErrNoState = errors.New("no state recorded")

// StateError is a state snapshot object that cannot be loaded: missing,
// of the wrong size or with the wrong checksum. It names the object and the
// commit that references it.
type StateError struct {
	Key      string
	Epoch    int64 // of the commit record that references it
	Location string
	Problem  string // "missing", "checksum mismatch", "size mismatch", ...
	Err      error
}

func (e *StateError) Error() string {
	msg := fmt.Sprintf("state %q of commit epoch %d: %s: %s", e.Key, e.Epoch, e.Location, e.Problem)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *StateError) Unwrap() error { return e.Err }

// Damaged reports whether the object is missing or does not match its
// record (as opposed to a read that failed: a permission or network error,
// which says nothing about the object).
func (e *StateError) Damaged() bool { return e.Problem != problemUnreadable }

const problemUnreadable = "cannot be read"

// ParseStateRef decodes a state entry written by Txn.WriteState.
func ParseStateRef(raw json.RawMessage) (*StateRef, error) {
	var r StateRef
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("not a state object reference: %w", err)
	}
	if r.Object == "" {
		return nil, errors.New("not a state object reference: no object name")
	}
	return &r, nil
}

// ReadState is the one reader of state snapshots: it reads the object that
// commit c records under key and returns its bytes after checking its size
// and sha256 against the record. A missing, truncated or corrupted object is
// a *StateError (never loaded); a key the commit does not record wraps
// ErrNoState. Every state load goes through it.
func (w *Warehouse) ReadState(ctx context.Context, c *Commit, key string) ([]byte, error) {
	if c == nil {
		return nil, fmt.Errorf("state %q: %w (no commit yet)", key, ErrNoState)
	}
	raw, ok := c.State[key]
	if !ok {
		return nil, fmt.Errorf("state %q of commit epoch %d: %w", key, c.Epoch, ErrNoState)
	}
	ref, err := ParseStateRef(raw)
	if err != nil {
		return nil, &StateError{Key: key, Epoch: c.Epoch, Location: w.FS.Location(CommitName(c.Epoch)), Problem: "unreadable entry", Err: err}
	}
	data, _, err := w.FS.ReadFile(ctx, ref.Object)
	if err != nil {
		return nil, w.stateErr(c, key, ref, err)
	}
	if err := checkState(ref, data); err != nil {
		return nil, &StateError{Key: key, Epoch: c.Epoch, Location: w.FS.Location(ref.Object), Problem: err.Error()}
	}
	return data, nil
}

func (w *Warehouse) stateErr(c *Commit, key string, ref *StateRef, err error) error {
	problem := problemUnreadable
	if errors.Is(err, store.ErrNotExist) {
		problem = "missing"
	}
	return &StateError{Key: key, Epoch: c.Epoch, Location: w.FS.Location(ref.Object), Problem: problem, Err: err}
}

func checkState(ref *StateRef, data []byte) error {
	if ref.Bytes != nil && int64(len(data)) != *ref.Bytes {
		return fmt.Errorf("size mismatch: recorded %d bytes, found %d", *ref.Bytes, len(data))
	}
	if ref.SHA256 != "" {
		h := sha256.Sum256(data)
		if got := hex.EncodeToString(h[:]); got != ref.SHA256 {
			return fmt.Errorf("checksum mismatch: recorded sha256 %s, computed %s", ref.SHA256, got)
		}
	}
	return nil
}

// VerifyState checks every state snapshot object commit c references
// (entries that name an object; other entries are not objects): each must
// exist and match its recorded size and checksum. It streams the objects
// through the hash, so large state is not held in memory. It returns the
// first problem as a *StateError, in key order.
func (w *Warehouse) VerifyState(ctx context.Context, c *Commit) error {
	if c == nil {
		return nil
	}
	keys := make([]string, 0, len(c.State))
	for k := range c.State {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		ref, err := ParseStateRef(c.State[key])
		if err != nil {
			continue // not an object reference (a sink's bookkeeping, ...)
		}
		obj, err := w.FS.Open(ctx, ref.Object)
		if err != nil {
			return w.stateErr(c, key, ref, err)
		}
		h := sha256.New()
		n, err := io.Copy(h, obj)
		obj.Close()
		if err != nil {
			return &StateError{Key: key, Epoch: c.Epoch, Location: w.FS.Location(ref.Object), Problem: problemUnreadable, Err: err}
		}
		if ref.Bytes != nil && n != *ref.Bytes {
			return &StateError{Key: key, Epoch: c.Epoch, Location: w.FS.Location(ref.Object),
				Problem: fmt.Sprintf("size mismatch: recorded %d bytes, found %d", *ref.Bytes, n)}
		}
		if ref.SHA256 != "" {
			if got := hex.EncodeToString(h.Sum(nil)); got != ref.SHA256 {
				return &StateError{Key: key, Epoch: c.Epoch, Location: w.FS.Location(ref.Object),
					Problem: fmt.Sprintf("checksum mismatch: recorded sha256 %s, computed %s", ref.SHA256, got)}
			}
		}
	}
	return nil
}

// A note is a small object beside a state snapshot object, written after
// the commit to remember something about it that the commit record could
// not say yet (a Kafka sink: the epoch's staged rows reached Kafka). Notes
// are in no commit record: they live and go with their epoch's checkpoint
// folder, so a missing note must only ever cost a check, never correctness.

func noteName(object, suffix string) string { return object + "." + suffix }

// WriteNote writes the note suffix beside the state object.
func (w *Warehouse) WriteNote(ctx context.Context, object, suffix string, data []byte) error {
	return w.FS.WriteFile(ctx, noteName(object, suffix), data)
}

// HasNote reports whether the note suffix is beside the state object.
func (w *Warehouse) HasNote(ctx context.Context, object, suffix string) (bool, error) {
	_, err := w.FS.Stat(ctx, noteName(object, suffix))
	if errors.Is(err, store.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}
