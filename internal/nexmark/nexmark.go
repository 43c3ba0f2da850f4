package nexmark

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Proportions of the event kinds in every block of 50 events.
const (
	PersonProportion  = 1
	AuctionProportion = 3
	BidProportion     = 46
	totalProportion   = PersonProportion + AuctionProportion + BidProportion

	FirstPersonID   = 1000
	FirstAuctionID  = 1000
	FirstCategoryID = 10
	NumCategories   = 5

	inFlightAuctions = 100  // bids go to one of the last this many auctions
	activePeople     = 1000 // bidders and sellers are among the last this many people
)

// Kind is an event kind.
type Kind uint8

const (
	PersonKind Kind = iota + 1
	AuctionKind
	BidKind
)

func (k Kind) String() string {
	switch k {
	case PersonKind:
		return "person"
	case AuctionKind:
		return "auction"
	case BidKind:
		return "bid"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// KindOf is the kind of event number n (0-based): in each block of 50, the
// first is a person, the next 3 auctions, the other 46 bids.
func KindOf(n int64) Kind {
	switch off := n % totalProportion; {
	case off < PersonProportion:
		return PersonKind
	case off < PersonProportion+AuctionProportion:
		return AuctionKind
	}
	return BidKind
}

// Count returns how many of the first n events are persons, auctions and
// bids.
func Count(n int64) (persons, auctions, bids int64) {
	blocks, rest := n/totalProportion, n%totalProportion
	persons = blocks*PersonProportion + min(rest, PersonProportion)
	auctions = blocks*AuctionProportion + min(max(rest-PersonProportion, 0), AuctionProportion)
	bids = n - persons - auctions
	return
}

// Person is a new seller or bidder. Times are Unix milliseconds.
type Person struct {
	ID           int64
	Name         string
	EmailAddress string
	CreditCard   string
	City         string
	State        string
	DateTime     int64
	Extra        string
}

// Auction is an item put up for auction.
type Auction struct {
	ID          int64
	ItemName    string
	Description string
	InitialBid  int64
	Reserve     int64
	DateTime    int64
	Expires     int64
	Seller      int64
	Category    int64
	Extra       string
}

// Bid is a bid on an auction.
type Bid struct {
	Auction  int64
	Bidder   int64
	Price    int64
	Channel  string
	URL      string
	DateTime int64
	Extra    string
}

// Event is one generated event; exactly one of Person, Auction, Bid is set.
type Event struct {
	N       int64 // sequence number
	Kind    Kind
	Person  *Person
	Auction *Auction
	Bid     *Bid
}

// DateTime is the event's event time (Unix milliseconds).
func (e Event) DateTime() int64 {
	switch e.Kind {
	case PersonKind:
		return e.Person.DateTime
	case AuctionKind:
		return e.Auction.DateTime
	}
	return e.Bid.DateTime
}

// Config configures a generator. The zero value of a field means its
// default.
type Config struct {
	Seed            uint64
	Events          int64         // how many events; default 100000
	FirstEventTime  time.Time     // default 2026-01-01T00:00:00Z
	EventsPerSecond int64         // nominal event rate in event time; default 10000
	MaxDisorder     time.Duration // default 2s; negative means none
}

func (c Config) withDefaults() Config {
	if c.Events == 0 {
		c.Events = 100000
	}
	if c.FirstEventTime.IsZero() {
		c.FirstEventTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if c.EventsPerSecond <= 0 {
		c.EventsPerSecond = 10000
	}
	if c.MaxDisorder == 0 {
		c.MaxDisorder = 2 * time.Second
	}
	if c.MaxDisorder < 0 {
		c.MaxDisorder = 0
	}
	return c
}

// Generator produces the event sequence of a Config.
type Generator struct {
	cfg      Config
	rng      *rand.Rand
	n        int64
	persons  int64 // persons generated so far
	auctions int64
	baseMS   int64
}

// NewGenerator returns a generator at event 0.
func NewGenerator(cfg Config) *Generator {
	cfg = cfg.withDefaults()
	return &Generator{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 0x4e45584d41524b)), baseMS: cfg.FirstEventTime.UnixMilli()}
}

// Config is the generator's configuration, defaults filled in.
func (g *Generator) Config() Config { return g.cfg }

// NominalTime is event n's undisturbed event time (Unix milliseconds).
func (g *Generator) NominalTime(n int64) int64 {
	return g.baseMS + n*1000/g.cfg.EventsPerSecond
}

var (
	firstNames = []string{"Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"}
	lastNames  = []string{"Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"}
	cities     = []string{"Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"}
	states     = []string{"AZ", "CA", "ID", "OR", "WA", "WY"}
	channels   = []string{"Google", "Facebook", "Baidu", "Apple"}
)

func (g *Generator) pick(list []string) string { return list[g.rng.IntN(len(list))] }

func (g *Generator) word(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + g.rng.IntN(26))
	}
	return string(b)
}

// price is Nexmark's price distribution: 10^U[0,6) dollars, in cents.
func (g *Generator) price() int64 {
	return int64(math.Round(math.Pow(10, g.rng.Float64()*6) * 100))
}

// recentPerson is a bidder or seller: the newest person a quarter of the
// time, else one of the last activePeople.
func (g *Generator) recentPerson() int64 {
	if g.rng.IntN(4) == 0 {
		return FirstPersonID + g.persons - 1
	}
	n := min(g.persons, activePeople)
	return FirstPersonID + g.persons - 1 - g.rng.Int64N(n)
}

// Next returns the next event; ok is false after Config.Events events.
func (g *Generator) Next() (ev Event, ok bool) {
	if g.n >= g.cfg.Events {
		return Event{}, false
	}
	n := g.n
	g.n++
	t := g.NominalTime(n)
	if d := g.cfg.MaxDisorder.Milliseconds(); d > 0 {
		t -= g.rng.Int64N(d + 1)
	}
	ev = Event{N: n, Kind: KindOf(n)}
	switch ev.Kind {
	case PersonKind:
		id := FirstPersonID + g.persons
		g.persons++
		name := g.pick(firstNames) + " " + g.pick(lastNames)
		ev.Person = &Person{
			ID:           id,
			Name:         name,
			EmailAddress: g.word(7) + "@" + g.word(5) + ".com",
			CreditCard:   fmt.Sprintf("%04d %04d %04d %04d", g.rng.IntN(10000), g.rng.IntN(10000), g.rng.IntN(10000), g.rng.IntN(10000)),
			City:         g.pick(cities),
			State:        g.pick(states),
			DateTime:     t,
			Extra:        g.word(g.rng.IntN(8)),
		}
	case AuctionKind:
		id := FirstAuctionID + g.auctions
		g.auctions++
		initial := g.price()
		ev.Auction = &Auction{
			ID:          id,
			ItemName:    g.word(5 + g.rng.IntN(10)),
			Description: g.word(10 + g.rng.IntN(20)),
			InitialBid:  initial,
			Reserve:     initial + g.price(),
			DateTime:    t,
			Expires:     t + 1000*(10+g.rng.Int64N(120)),
			Seller:      g.recentPerson(),
			Category:    FirstCategoryID + g.rng.Int64N(NumCategories),
			Extra:       g.word(g.rng.IntN(8)),
		}
	case BidKind:
		var auction int64
		if g.rng.IntN(2) == 0 {
			auction = FirstAuctionID + g.auctions - 1 // the hot auction: the newest
		} else {
			auction = FirstAuctionID + g.auctions - 1 - g.rng.Int64N(min(g.auctions, inFlightAuctions))
		}
		ch := g.pick(channels)
		if g.rng.IntN(10) == 0 {
			ch = "channel-" + fmt.Sprint(g.rng.IntN(100))
		}
		ev.Bid = &Bid{
			Auction:  auction,
			Bidder:   g.recentPerson(),
			Price:    g.price(),
			Channel:  ch,
			URL:      "https://www.nexmark.com/" + g.word(5) + "/item.htm?query=1",
			DateTime: t,
			Extra:    g.word(g.rng.IntN(8)),
		}
	}
	return ev, true
}
