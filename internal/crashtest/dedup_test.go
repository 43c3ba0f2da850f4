package crashtest

import (
	"fmt"
	"math/rand"
	"testing"
	"time"
)

func init() {
	scenarios = append(scenarios, dedupScenario)
}

// dedupScenario is distinct on (k) within watermark (and on (id), ids sent
// twice) over a watched folder: a key's state is its first event time plus
// the delay, held across epochs in the checkpoint. Event times are out of
// order by up to 6s against a delay of 4s, so some rows are late, keys come
// back after expiring, and an event is sometimes sent again, in the same
// file or a later one; keys and times are sometimes NULL. The watermark
// moves at each epoch's end, so each step is one micro-batch, as in the
// uninterrupted run: a restart must neither pass a duplicate on twice nor
// drop a first row.
var dedupScenario = &scenario{
	name: "dedup", src: "testdata/dedup", source: "ev", sameBatches: true,
	inputs: func(t *testing.T, rng *rand.Rand) (fixed, feed []inputFile) {
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		clock := time.Duration(0)
		var sent []string
		return nil, csvFiles(16, "data/ev", "ev", "id,k,t", func(int) []string {
			var out []string
			for range rowsPerFile {
				if len(sent) > 0 && rng.Intn(5) == 0 {
					out = append(out, sent[rng.Intn(len(sent))]) // sent again
					continue
				}
				clock += time.Duration(rng.Intn(1500)) * time.Millisecond
				k, ts := fmt.Sprintf("k%d", rng.Intn(6)), t0.Add(clock-time.Duration(rng.Intn(6000))*time.Millisecond).Format("2006-01-02 15:04:05.000")
				if rng.Intn(10) == 0 {
					k = ""
				}
				if rng.Intn(15) == 0 {
					ts = ""
				}
				row := fmt.Sprintf("%d,%s,%s", len(sent)+1, k, ts)
				sent = append(sent, row)
				out = append(out, row)
			}
			return out
		})
	},
	read:    []string{"firsts", "per_id"},
	streams: []string{"firsts/firsts", "per_id/per_id"},
}
