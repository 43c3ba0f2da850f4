package passes

import (
	"sort"
	"strings"
	"time"
	_ "time/tzdata" // a zone is checked the same on a machine without /usr/share/zoneinfo

	"github.com/nordisk/thund/ir"
)

// Session confs: the SQL conf a flow runs under (SET key = value in SQL,
// set "key" = "value" in the DSL), and what the native backend does with
// each spark.sql.* key. A flow's conf is the pipeline's, then its target's
// when it is the target's own flow (the dataset's Conf), then its own; the
// later wins, as Spark layers them. It then takes on the conf of each view
// and source it reads, through views, as Spark analyses a view inside its
// reader (confMerger). Spark's lowering carries every conf as written.
//
// SQLConfs is the one table of the confs the native backend knows: those it
// honours, and those that only tune how Spark executes (never the rows).
// Any other spark.sql.* key is a positioned warning on the native target
// (the plan pass), and passes through to Spark untouched. docs/sql.md's
// table is generated from this one (TestConfDocs keeps them in sync).

// ConfUse is what the native backend does with a conf.
type ConfUse string

const (
	ConfHonoured ConfUse = "honoured"            // the native backend gives Spark's answer under it
	ConfNoEffect ConfUse = "no effect"           // tunes Spark's execution; results are the same without it
	ConfRefused  ConfUse = "some values refused" // honoured for some values, refused at check time for others
)

// ConfInfo is one row of SQLConfs. A Key ending in ".*" covers every key
// under that prefix.
type ConfInfo struct {
	Key  string
	Use  ConfUse
	Note string
}

// Conf keys the passes read.
const (
	ConfTimeZone = "spark.sql.session.timeZone"
	ConfANSI     = "spark.sql.ansi.enabled"
)

// SQLConfs is the allow-list of spark.sql.* confs (see the file comment).
var SQLConfs = []ConfInfo{
	{ConfTimeZone, ConfHonoured, "the zone of every meeting of a TIMESTAMP with a DATE, a STRING or a TIMESTAMP_NTZ: casts both ways, hour/minute/second, year/month/day, to_date, date_trunc, unix_timestamp of a DATE, timestamp subtraction, a TIMESTAMP literal compared with or stored as a TIMESTAMP; default UTC (Spark's is the JVM's zone); `SET TIME ZONE 'zone'` sets it too"},
	{ConfANSI, ConfRefused, "true (the default) is Spark 4's ANSI semantics, which the native backend keeps; false (Spark's legacy NULL-on-error results) is refused by the native backend at check time"},
	{"spark.sql.shuffle.partitions", ConfNoEffect, "parallelism of Spark's shuffles"},
	{"spark.sql.adaptive.*", ConfNoEffect, "adaptive query execution"},
	{"spark.sql.autoBroadcastJoinThreshold", ConfNoEffect, "join strategy"},
	{"spark.sql.broadcastTimeout", ConfNoEffect, "join strategy"},
	{"spark.sql.join.preferSortMergeJoin", ConfNoEffect, "join strategy"},
	{"spark.sql.cbo.*", ConfNoEffect, "cost-based optimizer"},
	{"spark.sql.codegen.*", ConfNoEffect, "Spark's code generation"},
	{"spark.sql.files.maxPartitionBytes", ConfNoEffect, "how Spark splits input files"},
	{"spark.sql.files.openCostInBytes", ConfNoEffect, "how Spark splits input files"},
	{"spark.sql.files.maxRecordsPerFile", ConfNoEffect, "how Spark splits output files"},
	{"spark.sql.parquet.compression.codec", ConfNoEffect, "the compression of Spark's Parquet files"},
	{"spark.sql.streaming.stateStore.providerClass", ConfNoEffect, "where Spark keeps streaming state"},
	{"spark.sql.streaming.stateStore.rocksdb.*", ConfNoEffect, "where Spark keeps streaming state"},
	{"spark.sql.pipelines.*", ConfNoEffect, "how Spark's pipeline runner schedules and retries flows"},
}

// LookupConf is the row of SQLConfs that covers key, if any.
func LookupConf(key string) (ConfInfo, bool) {
	for _, c := range SQLConfs {
		if p, ok := strings.CutSuffix(c.Key, ".*"); ok {
			if strings.HasPrefix(key, p+".") {
				return c, true
			}
		} else if c.Key == key {
			return c, true
		}
	}
	return ConfInfo{}, false
}

// Session is what a flow's conf changes in its results.
type Session struct {
	Zone    string // spark.sql.session.timeZone as written; "" is UTC, the default
	ZonePos ir.Pos
	NonANSI bool // spark.sql.ansi.enabled = false
	ANSIPos ir.Pos
}

// UTC reports whether the session zone is UTC (or a zero offset), under
// which a TIMESTAMP's fields are its UTC fields.
func (s Session) UTC() bool {
	switch strings.ToUpper(s.Zone) {
	case "", "UTC", "Z", "GMT", "UT", "ETC/UTC", "+00:00", "-00:00", "UTC+0", "GMT+0", "+0", "-0", "+00", "+0000", "+00:00:00":
		return true
	}
	return false
}

// FlowConf is the conf a flow runs under, in layering order (the pipeline's,
// its target's own-flow conf, its own): a later entry wins.
func FlowConf(p *ir.Pipeline, f *ir.Flow) []ir.KV {
	conf := append([]ir.KV(nil), p.Conf...)
	if d := p.LookupDataset(f.Target); d != nil && strings.EqualFold(f.Name, d.Name) {
		conf = append(conf, d.Conf...)
	}
	return append(conf, f.Conf...)
}

// confVal is one conf entry in force in a flow: its value, where it was
// set, and by which dataset or flow (Spark's words in a conflict).
type confVal struct {
	value string
	pos   ir.Pos
	by    string
}

// confMerger computes the conf each flow runs under on Spark: its layered
// conf (FlowConf) merged with the conf of every view it reads (sources
// included: they are temporary views on Spark), through views, because a
// view's query is analysed inside its reader's. Two values of one key are
// Spark's DUPLICATE_FLOW_SQL_CONF, an error on every target.
type confMerger struct {
	u     *Unit
	views map[*ir.Dataset]map[string]confVal
}

func layered(into map[string]confVal, kvs []ir.KV, by string) {
	for _, kv := range kvs {
		into[kv.Key] = confVal{value: kv.Value, pos: kv.Pos, by: by}
	}
}

// flow is the merged conf of flow f.
func (m *confMerger) flow(f *ir.Flow) map[string]confVal {
	own := map[string]confVal{}
	layered(own, m.u.Pipeline.Conf, f.Name)
	if d := m.u.lookup(f.Target); d != nil && strings.EqualFold(f.Name, d.Name) {
		layered(own, d.Conf, f.Name)
	}
	layered(own, f.Conf, f.Name)
	if f.Query == nil {
		return own
	}
	for _, sc := range ir.Scans(f.Query) {
		d := m.u.lookup(sc.Name)
		if d == nil || !(d.Kind == ir.KindSource || d.Kind == ir.KindTemporaryView || d.Kind == ir.KindView) {
			continue
		}
		keys := make([]string, 0)
		up := m.view(d)
		for k := range up {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v := up[k]
			have, ok := own[k]
			switch {
			case !ok:
				own[k] = v
			case have.value != v.value:
				m.u.Diags.Add(sc.Pos, ir.CodeBadConf, "[DUPLICATE_FLOW_SQL_CONF] Found duplicate sql conf for dataset '%s': '%s' is defined by both '%s' and '%s' (%q and %q): a flow runs under the conf of the views it reads, which must agree with its own", f.Target, k, have.by, v.by, have.value, v.value)
			}
		}
	}
	return own
}

// view is the merged conf a view's (or a source's) reader takes on.
func (m *confMerger) view(d *ir.Dataset) map[string]confVal {
	if c, ok := m.views[d]; ok {
		return c
	}
	m.views[d] = map[string]confVal{} // a cycle is validate's error
	c := map[string]confVal{}
	if d.Kind == ir.KindSource {
		layered(c, m.u.Pipeline.Conf, d.Name)
		layered(c, d.Conf, d.Name)
	} else {
		for _, f := range m.u.flowsInto(d) {
			for k, v := range m.flow(f) {
				if v.by == f.Name {
					v.by = d.Name
				}
				c[k] = v
			}
		}
	}
	m.views[d] = c
	return c
}

// sessionOf reads a session from a merged conf.
func sessionOf(conf map[string]confVal) Session {
	var s Session
	if v, ok := conf[ConfTimeZone]; ok {
		s.Zone, s.ZonePos = v.value, v.pos
	}
	if v, ok := conf[ConfANSI]; ok {
		s.ANSIPos = v.pos
		s.NonANSI = strings.ToLower(strings.TrimSpace(v.value)) == "false"
	}
	return s
}

// checkConf reports the values of known confs Spark refuses, once per
// entry (resolve; every target).
func checkConf(u *Unit) {
	check := func(kv ir.KV) {
		switch kv.Key {
		case ConfTimeZone:
			if !ValidZone(kv.Value) {
				u.Diags.Add(kv.Pos, ir.CodeBadConf, "[INVALID_CONF_VALUE.TIME_ZONE] The value '%s' in the config \"%s\" is invalid. Cannot resolve the given timezone: want a region such as America/New_York, an offset such as +05:30, or UTC", kv.Value, kv.Key)
			}
		case ConfANSI:
			if v := strings.ToLower(strings.TrimSpace(kv.Value)); v != "true" && v != "false" {
				u.Diags.Add(kv.Pos, ir.CodeBadConf, "[INVALID_CONF_VALUE.TYPE_MISMATCH] The value '%s' in the config \"%s\" is invalid. It should be a/an 'boolean' value: true or false", kv.Value, kv.Key)
			}
		}
	}
	eachConf(u.Pipeline, check)
	u.Sessions = map[*ir.Flow]Session{}
	m := &confMerger{u: u, views: map[*ir.Dataset]map[string]confVal{}}
	for _, f := range u.Pipeline.Flows {
		u.Sessions[f] = sessionOf(m.flow(f))
	}
}

// ValidZone reports whether Spark resolves z as a session time zone
// (DateTimeUtils.getZoneId: a region of the tz database, a Java short id
// such as EST, Z, an offset, or UTC/GMT/UT with or without an offset).
func ValidZone(z string) bool {
	id := z
	// Spark's rewrites: (+|-)h: -> (+|-)0h:, and a trailing (+|-)hh:m -> (+|-)hh:0m.
	for k := 0; k+2 < len(id); k++ { // the first "(+|-)d:" only
		if (id[k] == '+' || id[k] == '-') && isDigit(id[k+1]) && id[k+2] == ':' {
			id = id[:k+1] + "0" + id[k+1:]
			break
		}
	}
	if n := len(id); n >= 5 && (id[n-5] == '+' || id[n-5] == '-') && isDigit(id[n-4]) && isDigit(id[n-3]) && id[n-2] == ':' && isDigit(id[n-1]) {
		id = id[:n-1] + "0" + id[n-1:]
	}
	switch {
	case id == "Z" || id == "UTC" || id == "GMT" || id == "UT":
		return true
	case strings.HasPrefix(id, "+") || strings.HasPrefix(id, "-"):
		return validOffset(id)
	case strings.HasPrefix(id, "UTC+") || strings.HasPrefix(id, "UTC-") || strings.HasPrefix(id, "GMT+") || strings.HasPrefix(id, "GMT-"):
		return validOffset(id[3:])
	case strings.HasPrefix(id, "UT+") || strings.HasPrefix(id, "UT-"):
		return validOffset(id[2:])
	}
	if r, ok := javaShortIDs[id]; ok {
		if r[0] == '-' {
			return true
		}
		id = r
	}
	if id == "" || id == "Local" || strings.Contains(id, "..") || strings.HasPrefix(id, "/") {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || strings.IndexByte("~/._+-", c) >= 0) {
			return false
		}
	}
	_, err := time.LoadLocation(id)
	return err == nil
}

// validOffset is java.time.ZoneOffset.of's syntax: +h, +hh, +hh:mm, +hhmm,
// +hh:mm:ss, +hhmmss, at most 18 hours.
func validOffset(s string) bool {
	if len(s) < 2 || s[0] != '+' && s[0] != '-' {
		return false
	}
	d := s[1:]
	num := func(t string) (int, bool) {
		if len(t) != 2 || !isDigit(t[0]) || !isDigit(t[1]) {
			return 0, false
		}
		return int(t[0]-'0')*10 + int(t[1]-'0'), true
	}
	var h, m, sec int
	ok := true
	switch len(d) {
	case 1:
		if !isDigit(d[0]) {
			return false
		}
		h = int(d[0] - '0')
	case 2:
		h, ok = num(d)
	case 4:
		var ok2 bool
		h, ok = num(d[:2])
		m, ok2 = num(d[2:])
		ok = ok && ok2
	case 5:
		var ok2 bool
		h, ok = num(d[:2])
		m, ok2 = num(d[3:])
		ok = ok && ok2 && d[2] == ':'
	case 6:
		var ok2, ok3 bool
		h, ok = num(d[:2])
		m, ok2 = num(d[2:4])
		sec, ok3 = num(d[4:])
		ok = ok && ok2 && ok3
	case 8:
		var ok2, ok3 bool
		h, ok = num(d[:2])
		m, ok2 = num(d[3:5])
		sec, ok3 = num(d[6:])
		ok = ok && ok2 && ok3 && d[2] == ':' && d[5] == ':'
	default:
		return false
	}
	if !ok || h > 18 || m > 59 || sec > 59 {
		return false
	}
	return h < 18 || m == 0 && sec == 0
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// javaShortIDs is java.time.ZoneId.SHORT_IDS.
var javaShortIDs = map[string]string{
	"ACT": "Australia/Darwin", "AET": "Australia/Sydney", "AGT": "America/Argentina/Buenos_Aires",
	"ART": "Africa/Cairo", "AST": "America/Anchorage", "BET": "America/Sao_Paulo", "BST": "Asia/Dhaka",
	"CAT": "Africa/Harare", "CNT": "America/St_Johns", "CST": "America/Chicago", "CTT": "Asia/Shanghai",
	"EAT": "Africa/Addis_Ababa", "ECT": "Europe/Paris", "IET": "America/Indiana/Indianapolis",
	"IST": "Asia/Kolkata", "JST": "Asia/Tokyo", "MIT": "Pacific/Apia", "NET": "Asia/Yerevan",
	"NST": "Pacific/Auckland", "PLT": "Asia/Karachi", "PNT": "America/Phoenix", "PRT": "America/Puerto_Rico",
	"PST": "America/Los_Angeles", "SST": "Pacific/Guadalcanal", "VST": "Asia/Ho_Chi_Minh",
	"EST": "-05:00", "MST": "-07:00", "HST": "-10:00",
}

// confWarnings warns, on the native target, of each spark.sql.* conf the
// native backend does not know (the plan pass): it is passed to Spark, and
// the native backend runs as if it were unset.
func confWarnings(u *Unit) {
	warn := func(kv ir.KV) {
		if !strings.HasPrefix(kv.Key, "spark.sql.") {
			return
		}
		if _, ok := LookupConf(kv.Key); ok {
			return
		}
		u.Diags.Warn(kv.Pos, ir.CodeCapability, "%s: conf %s is not one the native backend knows (docs/sql.md lists them): it runs as if it were unset, and Spark targets pass it through", nativeBackend, kv.Key)
	}
	eachConf(u.Pipeline, warn)
}

// Shifts reports whether a conversion between types from and to crosses
// the session zone: between a TIMESTAMP (a zoned timestamp type) and a
// DATE, a STRING or a TIMESTAMP_NTZ (a zoneless timestamp type). Under UTC
// none does (a UTC wall clock is the instant).
func (s Session) Shifts(from, to ir.Type) bool {
	if s.UTC() {
		return false
	}
	ltz := func(t ir.Type) bool { return t.Kind == ir.TTimestamp && t.Zone != "" }
	local := func(t ir.Type) bool {
		return t.Kind == ir.TDate32 || t.Kind == ir.TString || t.Kind == ir.TTimestamp && t.Zone == ""
	}
	return ltz(from) && local(to) || local(from) && ltz(to)
}

// confReport records in the lowering report (the capability pass) the
// confs a target does not carry: on every target, a dataset's conf when
// the dataset has no flow of its own (it applies to its own flow only; a
// source's is carried, as its view's); on the native target, each
// spark.sql.* conf the native backend does not know (SQLConfs).
func confReport(u *Unit) {
	add := func(kv ir.KV, flow, dataset, why string) {
		u.Report.Entries = append(u.Report.Entries, ReportEntry{Flow: flow, Dataset: dataset, Knob: "conf " + kv.Key, Action: ActionDropped, Reason: why, Pos: kv.Pos})
	}
	unknown := func(kv ir.KV) bool {
		_, ok := LookupConf(kv.Key)
		return u.Opts.Target == Native && strings.HasPrefix(kv.Key, "spark.sql.") && !ok
	}
	const whyUnknown = "is not a conf the native backend knows: it runs as if it were unset"
	for _, kv := range u.Pipeline.Conf {
		if unknown(kv) {
			add(kv, "", "", whyUnknown)
		}
	}
	for _, d := range u.Pipeline.Datasets {
		own := d.Kind == ir.KindSource
		for _, f := range u.flowsInto(d) {
			own = own || strings.EqualFold(f.Name, d.Name)
		}
		for _, kv := range d.Conf {
			switch {
			case !own:
				add(kv, "", d.Name, "applies to the dataset's own flow, and "+d.Name+" has none: set it on the flows into it")
			case unknown(kv):
				add(kv, "", d.Name, whyUnknown)
			}
		}
	}
	for _, f := range u.Pipeline.Flows {
		for _, kv := range f.Conf {
			if unknown(kv) {
				add(kv, f.Name, f.Target, whyUnknown)
			}
		}
	}
}

// ConfTableMarkdown is docs/sql.md's table of SQLConfs (TestConfDocs).
func ConfTableMarkdown() string {
	var b strings.Builder
	b.WriteString("| conf | native backend | what it is |\n|---|---|---|\n")
	for _, c := range SQLConfs {
		b.WriteString("| `" + c.Key + "` | " + string(c.Use) + " | " + c.Note + " |\n")
	}
	return b.String()
}

// eachConf calls fn for every conf of p: the pipeline's, the datasets' and
// the flows'.
func eachConf(p *ir.Pipeline, fn func(ir.KV)) {
	for _, kv := range p.Conf {
		fn(kv)
	}
	for _, d := range p.Datasets {
		for _, kv := range d.Conf {
			fn(kv)
		}
	}
	for _, f := range p.Flows {
		for _, kv := range f.Conf {
			fn(kv)
		}
	}
}
