package sqlfn

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// The expected values below are Spark 4.1.4's and 4.2.1's answers (the
// same on both), from SELECT hash(...), xxhash64(...), md5(...) and so on
// on the lane's servers.

func TestMurmur3Spark(t *testing.T) {
	dec := func(s string, p, sc int32) decimal128.Num {
		v, err := decimal128.FromString(s, p, sc)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		name string
		got  int32
		want int32
	}{
		{"hash(1)", Murmur3Int(1, HashSeed), -559580957},
		{"hash(-5)", Murmur3Int(-5, HashSeed), 1369497261},
		{"hash(false)", Murmur3Int(0, HashSeed), 933211791},
		{"hash(1L)", Murmur3Long(1, HashSeed), -1712319331},
		{"hash(-1L)", Murmur3Long(-1, HashSeed), -939490007},
		{"hash(1.5f)", Murmur3Int(Float32HashBits(1.5), HashSeed), -221251528},
		{"hash(-1.5f)", Murmur3Int(Float32HashBits(-1.5), HashSeed), 1765572753},
		{"hash(-0.0f)", Murmur3Int(Float32HashBits(float32(negZero())), HashSeed), 933211791},
		{"hash(NaN float)", Murmur3Int(Float32HashBits(float32(nan())), HashSeed), -349261430},
		{"hash(1.5D)", Murmur3Long(Float64HashBits(1.5), HashSeed), 1290763749},
		{"hash(-0.0D)", Murmur3Long(Float64HashBits(negZero()), HashSeed), -1670924195},
		{"hash(0.0D)", Murmur3Long(Float64HashBits(0), HashSeed), -1670924195},
		{"hash(NaN)", Murmur3Long(Float64HashBits(nan()), HashSeed), -1281358385},
		{"hash('')", Murmur3Bytes("", HashSeed), 142593372},
		{"hash('a')", Murmur3Bytes("a", HashSeed), 1485273170},
		{"hash('ab')", Murmur3Bytes("ab", HashSeed), -97053317},
		{"hash('abc')", Murmur3Bytes("abc", HashSeed), 1322437556},
		{"hash('abcd')", Murmur3Bytes("abcd", HashSeed), -396302900},
		{"hash('abcde')", Murmur3Bytes("abcde", HashSeed), 814637928},
		{"hash('héllo')", Murmur3Bytes("héllo", HashSeed), 1212979866},
		{"hash(X'0102')", Murmur3Bytes([]byte{1, 2}, HashSeed), 1964783052},
		{"hash(date'2024-01-02')", Murmur3Int(19724, HashSeed), -21057580},
		{"hash(timestamp_ntz'2024-01-02 03:04:05')", Murmur3Long(1704164645000000, HashSeed), 476834194},
		{"hash(1.5BD)", Murmur3Decimal(dec("1.5", 2, 1), 2, HashSeed), -18083236},
		{"hash(1.5 decimal(20,2))", Murmur3Decimal(dec("1.5", 20, 2), 20, HashSeed), -339019914},
		{"hash(1.5 decimal(38,10))", Murmur3Decimal(dec("1.5", 38, 10), 38, HashSeed), -994477761},
		{"hash(-1.5 decimal(38,10))", Murmur3Decimal(dec("-1.5", 38, 10), 38, HashSeed), 1831729871},
		{"hash(0 decimal(38,10))", Murmur3Decimal(dec("0", 38, 10), 38, HashSeed), -783713497},
		{"hash(-128 decimal(20,0))", Murmur3Decimal(dec("-128", 20, 0), 20, HashSeed), 775851899},
		{"hash(128 decimal(20,0))", Murmur3Decimal(dec("128", 20, 0), 20, HashSeed), -544401882},
		{"hash(10^38-1 decimal(38,0))", Murmur3Decimal(dec("99999999999999999999999999999999999999", 38, 0), 38, HashSeed), -817514053},
		{"hash(-1.5 decimal(18,10))", Murmur3Decimal(dec("-1.5", 18, 10), 18, HashSeed), -153774150},
		{"hash(1, 2)", Murmur3Int(2, Murmur3Int(1, HashSeed)), -222940379},
		{"hash(2, 1)", Murmur3Int(1, Murmur3Int(2, HashSeed)), 601480897},
		{"hash(1, 'a', NULL, 2.5D)", Murmur3Long(Float64HashBits(2.5), Murmur3Bytes("a", Murmur3Int(1, HashSeed))), 389417474},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, Spark gives %d", c.name, c.got, c.want)
		}
	}
}

func TestXxHash64Spark(t *testing.T) {
	dec := func(s string, p, sc int32) decimal128.Num {
		v, err := decimal128.FromString(s, p, sc)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	rep := func(s string, n int) string {
		out := ""
		for range n {
			out += s
		}
		return out
	}
	for _, c := range []struct {
		name string
		got  int64
		want int64
	}{
		{"xxhash64(1)", XxHash64Int(1, HashSeed), -6698625589789238999},
		{"xxhash64(-5)", XxHash64Int(-5, HashSeed), 9201179564109417620},
		{"xxhash64(1L)", XxHash64Long(1, HashSeed), -7001672635703045582},
		{"xxhash64(-1L)", XxHash64Long(-1, HashSeed), 3858142552250413010},
		{"xxhash64(1.5f)", XxHash64Int(Float32HashBits(1.5), HashSeed), 6163473420726370430},
		{"xxhash64(NaN float)", XxHash64Int(Float32HashBits(float32(nan())), HashSeed), 2692338816207849720},
		{"xxhash64(-0.0D)", XxHash64Long(Float64HashBits(negZero()), HashSeed), -5252525462095825812},
		{"xxhash64(-2.5D)", XxHash64Long(Float64HashBits(-2.5), HashSeed), -2274979855732426304},
		{"xxhash64(date'2024-01-02')", XxHash64Int(19724, HashSeed), 2483697508354006915},
		{"xxhash64('')", XxHash64Bytes("", HashSeed), -7444071767201028348},
		{"xxhash64('a')", XxHash64Bytes("a", HashSeed), -8582455328737087284},
		{"xxhash64('abcd')", XxHash64Bytes("abcd", HashSeed), -6810745876291105281},
		{"xxhash64('abcdefgh')", XxHash64Bytes("abcdefgh", HashSeed), 2470326616177429180},
		{"xxhash64('abcdefghijk')", XxHash64Bytes("abcdefghijk", HashSeed), -6876501346027965189},
		{"xxhash64('héllo')", XxHash64Bytes("héllo", HashSeed), 501425390238239234},
		{"xxhash64(repeat('xyz', 11))", XxHash64Bytes(rep("xyz", 11), HashSeed), 2291566788167700035},
		{"xxhash64(repeat('xyz', 20))", XxHash64Bytes(rep("xyz", 20), HashSeed), 8654605178780636826},
		{"xxhash64(X'00ff80')", XxHash64Bytes([]byte{0, 0xff, 0x80}, HashSeed), 7869338589911211550},
		{"xxhash64(1.5 decimal(20,2))", XxHash64Decimal(dec("1.5", 20, 2), 20, HashSeed), -194698251525976593},
		{"xxhash64(1.5 decimal(38,10))", XxHash64Decimal(dec("1.5", 38, 10), 38, HashSeed), -3765538183238091397},
		{"xxhash64(-1.5 decimal(38,10))", XxHash64Decimal(dec("-1.5", 38, 10), 38, HashSeed), -2834697310053486304},
		{"xxhash64(0 decimal(19,0))", XxHash64Decimal(dec("0", 19, 0), 19, HashSeed), -8959994473701255385},
		{"xxhash64(1, 2)", XxHash64Int(2, XxHash64Int(1, HashSeed)), -8133857028838179022},
		{"xxhash64(1, 'a', NULL, 2.5D)", XxHash64Long(Float64HashBits(2.5), XxHash64Bytes("a", XxHash64Int(1, HashSeed))), -198860653963387819},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, Spark gives %d", c.name, c.got, c.want)
		}
	}
}

func TestDigestsSpark(t *testing.T) {
	sha2 := func(s string, n int32) string {
		v, ok := SHA2(s, n)
		if !ok {
			return "NULL"
		}
		return v
	}
	for _, c := range []struct{ name, got, want string }{
		{"md5('abc')", MD5("abc"), "900150983cd24fb0d6963f7d28e17f72"},
		{"md5(X'')", MD5([]byte{}), "d41d8cd98f00b204e9800998ecf8427e"},
		{"sha1('abc')", SHA1("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d"},
		{"sha1('héllo')", SHA1("héllo"), "35b5ea45c5e41f78b46a937cc74d41dfea920890"},
		{"sha2('abc', 0)", sha2("abc", 0), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"sha2('abc', 224)", sha2("abc", 224), "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"},
		{"sha2('abc', 384)", sha2("abc", 384), "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"},
		{"sha2('abc', 512)", sha2("abc", 512), "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
		{"sha2('abc', 100)", sha2("abc", 100), "NULL"},
		{"sha2('abc', -256)", sha2("abc", -256), "NULL"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %s, Spark gives %s", c.name, c.got, c.want)
		}
	}
	if got := CRC32("héllo"); got != 2654700086 {
		t.Errorf("crc32('héllo') = %d, Spark gives 2654700086", got)
	}
	if got := CRC32([]byte{0}); got != 3523407757 {
		t.Errorf("crc32(X'00') = %d, Spark gives 3523407757", got)
	}
}

func negZero() float64 { return math.Copysign(0, -1) }

func nan() float64 { return math.NaN() }
