package codegen

import (
	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// The session time zone (spark.sql.session.timeZone, passes/conf.go). A
// TIMESTAMP value is an instant in every zone; what the zone changes is
// where a TIMESTAMP meets a DATE, a STRING or a TIMESTAMP_NTZ (a zoneless
// timestamp): there, and only there, generated code converts through the
// flow's zone (sqlfn.Zone's Local and Instant), so that the fields, dates,
// truncations and texts computed on the zoneless side are the zone's. Under
// UTC (the default) nothing is converted and nothing is generated.

// session is the flow's session conf.
func (g *flowGen) session() passes.Session { return g.u.Sessions[g.flow] }

// zoneVar is the package-level variable holding the flow's session zone,
// declared on first use.
func (g *flowGen) zoneVar() jen.Code {
	name := g.fname + "Zone"
	zone := g.session().Zone
	return g.declareOnce(name, func() jen.Code {
		return jen.Commentf("%s is the session time zone of the flow (spark.sql.session.timeZone).", name).Line().
			Var().Id(name).Op("=").Qual(sqlfnPkg, "SessionZone").Call(jen.Lit(zone))
	})
}

// shifts reports whether converting from to to crosses the session zone.
func (g *flowGen) shifts(from, to ir.Type) bool { return g.session().Shifts(from, to) }

// castZoned is a cast that crosses the session zone (shifts): a TIMESTAMP
// goes to its wall-clock time first, and a DATE, STRING or TIMESTAMP_NTZ
// becomes the instant of its wall-clock time in the zone.
func (g *flowGen) castZoned(x *value, to ir.Type, try bool, pos ir.Pos) *value {
	from := x.t
	if from.Kind == ir.TTimestamp && from.Zone != "" {
		local := ir.Timestamp(from.Unit, "")
		l := g.strict(local, pos, pure, false, []*value{x}, func() jen.Code {
			return jen.Add(g.zoneVar()).Dot("Local").Call(V(x), sqlfnUnit(from.Unit))
		})
		return g.genCast(l, to, try, pos)
	}
	if from.Kind == ir.TString {
		return g.strict(to, pos, checked, try, []*value{x}, func() jen.Code {
			return jen.Qual(sqlfnPkg, "StringToTimestampIn").Call(V(x), sqlfnUnit(to.Unit), g.zoneVar())
		})
	}
	l := g.genCast(x, ir.Timestamp(to.Unit, ""), try, pos) // a DATE's midnight, or the NTZ in to's unit
	return g.strict(to, pos, pure, false, []*value{l}, func() jen.Code {
		return jen.Add(g.zoneVar()).Dot("Instant").Call(V(l), sqlfnUnit(to.Unit))
	})
}
