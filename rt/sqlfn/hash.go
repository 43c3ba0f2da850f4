package sqlfn

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash/crc32"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Hash functions with Spark's answers: the digests as lower-case hex text
// (md5, sha1, sha2), crc32, and Spark's two row hashes, hash (Murmur3
// x86_32) and xxhash64 (XXH64), each over a value's own representation:
// Spark hashes BOOLEAN, TINYINT, SMALLINT, INT and DATE as an int (hashInt),
// BIGINT, TIMESTAMP, TIMESTAMP_NTZ and day-time intervals as a long
// (hashLong, in microseconds), FLOAT and DOUBLE by their bits with -0.0 as
// 0.0 and one NaN (Float32HashBits, Float64HashBits), a DECIMAL of at most
// 18 digits by its unscaled long and a wider one by the bytes of its
// unscaled value (Java's BigInteger.toByteArray), and STRING and BINARY by
// their bytes. A NULL argument leaves the hash unchanged; each argument's
// hash seeds the next one's, from 42. The digests allocate their result.

// HashSeed is the seed of hash and xxhash64.
const HashSeed = 42

// MD5 is md5(x): the MD5 digest as 32 lower-case hex digits.
func MD5[T ~string | ~[]byte](x T) string {
	d := md5.Sum([]byte(x))
	return hex.EncodeToString(d[:])
}

// SHA1 is sha1(x) / sha(x): the SHA-1 digest as 40 lower-case hex digits.
func SHA1[T ~string | ~[]byte](x T) string {
	d := sha1.Sum([]byte(x))
	return hex.EncodeToString(d[:])
}

// SHA2 is sha2(x, bits): the SHA-224, SHA-256 (bits 256 or 0), SHA-384 or
// SHA-512 digest as lower-case hex digits; any other bit length is NULL.
func SHA2[T ~string | ~[]byte](x T, bitLen int32) (string, bool) {
	b := []byte(x)
	switch bitLen {
	case 224:
		d := sha256.Sum224(b)
		return hex.EncodeToString(d[:]), true
	case 0, 256:
		d := sha256.Sum256(b)
		return hex.EncodeToString(d[:]), true
	case 384:
		d := sha512.Sum384(b)
		return hex.EncodeToString(d[:]), true
	case 512:
		d := sha512.Sum512(b)
		return hex.EncodeToString(d[:]), true
	}
	return "", false
}

// CRC32 is crc32(x): the IEEE CRC-32 checksum, as a BIGINT.
func CRC32[T ~string | ~[]byte](x T) int64 {
	return int64(crc32.ChecksumIEEE([]byte(x)))
}

// Float32HashBits is how Spark's hashes see a FLOAT: its bits, with -0.0
// as 0.0 and every NaN as Java's canonical one (Float.floatToIntBits).
func Float32HashBits(f float32) int32 {
	switch {
	case f == 0:
		return 0
	case f != f:
		return 0x7fc00000
	}
	return int32(math.Float32bits(f))
}

// Float64HashBits is how Spark's hashes see a DOUBLE: its bits, with -0.0
// as 0.0 and every NaN as Java's canonical one (Double.doubleToLongBits).
func Float64HashBits(f float64) int64 {
	switch {
	case f == 0:
		return 0
	case f != f:
		return 0x7ff8000000000000
	}
	return int64(math.Float64bits(f))
}

// decimalHashBytes is the unscaled value of a wide DECIMAL as Java's
// BigInteger.toByteArray gives it: big-endian two's complement, in the
// fewest bytes that keep the sign (at least one). It fills buf.
func decimalHashBytes(v decimal128.Num, buf *[16]byte) []byte {
	hi, lo := uint64(v.HighBits()), v.LowBits()
	for i := 0; i < 8; i++ {
		buf[i] = byte(hi >> (56 - 8*i))
		buf[8+i] = byte(lo >> (56 - 8*i))
	}
	b := buf[:]
	for len(b) > 1 && (b[0] == 0 && b[1] < 0x80 || b[0] == 0xff && b[1] >= 0x80) {
		b = b[1:]
	}
	return b
}

// maxLongDigits is Spark's Decimal.MAX_LONG_DIGITS: a DECIMAL of at most
// this precision is hashed by its unscaled long.
const maxLongDigits = 18

// Murmur3 constants (Spark's Murmur3_x86_32).
const (
	murC1 = 0xcc9e2d51
	murC2 = 0x1b873593
)

func murMixK1(k uint32) uint32 {
	k *= murC1
	k = bits.RotateLeft32(k, 15)
	return k * murC2
}

func murMixH1(h, k uint32) uint32 {
	h ^= k
	h = bits.RotateLeft32(h, 13)
	return h*5 + 0xe6546b64
}

func murFmix(h uint32, length int) int32 {
	h ^= uint32(length)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return int32(h)
}

// Murmur3Int is hash's step for a value Spark hashes as an int.
func Murmur3Int(v int32, seed int32) int32 {
	return murFmix(murMixH1(uint32(seed), murMixK1(uint32(v))), 4)
}

// Murmur3Long is hash's step for a value Spark hashes as a long.
func Murmur3Long(v int64, seed int32) int32 {
	h := murMixH1(uint32(seed), murMixK1(uint32(v)))
	h = murMixH1(h, murMixK1(uint32(uint64(v)>>32)))
	return murFmix(h, 8)
}

// Murmur3Bytes is hash's step for a STRING or BINARY: Spark's
// hashUnsafeBytes, which mixes the 4-byte words little-endian and then
// each byte of the tail on its own, sign-extended.
func Murmur3Bytes[T ~string | ~[]byte](b T, seed int32) int32 {
	h := uint32(seed)
	n := len(b)
	aligned := n - n%4
	for i := 0; i < aligned; i += 4 {
		w := uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24
		h = murMixH1(h, murMixK1(w))
	}
	for i := aligned; i < n; i++ {
		h = murMixH1(h, murMixK1(uint32(int32(int8(b[i])))))
	}
	return murFmix(h, n)
}

// Murmur3Decimal is hash's step for a DECIMAL of precision p.
func Murmur3Decimal(v decimal128.Num, p int32, seed int32) int32 {
	if p <= maxLongDigits {
		return Murmur3Long(int64(v.LowBits()), seed)
	}
	var buf [16]byte
	return Murmur3Bytes(decimalHashBytes(v, &buf), seed)
}

// XXH64 primes.
const (
	xxP1 uint64 = 0x9E3779B185EBCA87
	xxP2 uint64 = 0xC2B2AE3D27D4EB4F
	xxP3 uint64 = 0x165667B19E3779F9
	xxP4 uint64 = 0x85EBCA77C2B2AE63
	xxP5 uint64 = 0x27D4EB2F165667C5
)

func xxFmix(h uint64) int64 {
	h ^= h >> 33
	h *= xxP2
	h ^= h >> 29
	h *= xxP3
	h ^= h >> 32
	return int64(h)
}

func xxRound(acc, lane uint64) uint64 {
	acc += lane * xxP2
	acc = bits.RotateLeft64(acc, 31)
	return acc * xxP1
}

func xxMerge(acc, v uint64) uint64 {
	acc ^= xxRound(0, v)
	return acc*xxP1 + xxP4
}

// XxHash64Int is xxhash64's step for a value Spark hashes as an int: XXH64
// of its 4 little-endian bytes.
func XxHash64Int(v int32, seed int64) int64 {
	h := uint64(seed) + xxP5 + 4
	h ^= uint64(uint32(v)) * xxP1
	h = bits.RotateLeft64(h, 23)*xxP2 + xxP3
	return xxFmix(h)
}

// XxHash64Long is xxhash64's step for a value Spark hashes as a long: XXH64
// of its 8 little-endian bytes.
func XxHash64Long(v int64, seed int64) int64 {
	h := uint64(seed) + xxP5 + 8
	h ^= xxRound(0, uint64(v))
	h = bits.RotateLeft64(h, 27)*xxP1 + xxP4
	return xxFmix(h)
}

// le64 and le32 read little-endian words of a string or byte slice.
func le64[T ~string | ~[]byte](b T, i int) uint64 {
	return uint64(b[i]) | uint64(b[i+1])<<8 | uint64(b[i+2])<<16 | uint64(b[i+3])<<24 |
		uint64(b[i+4])<<32 | uint64(b[i+5])<<40 | uint64(b[i+6])<<48 | uint64(b[i+7])<<56
}

func le32[T ~string | ~[]byte](b T, i int) uint64 {
	return uint64(b[i]) | uint64(b[i+1])<<8 | uint64(b[i+2])<<16 | uint64(b[i+3])<<24
}

// XxHash64Bytes is xxhash64's step for a STRING or BINARY: XXH64 of its
// bytes.
func XxHash64Bytes[T ~string | ~[]byte](b T, seed int64) int64 {
	n := len(b)
	s := uint64(seed)
	var h uint64
	i := 0
	if n >= 32 {
		v1, v2, v3, v4 := s+xxP1+xxP2, s+xxP2, s, s-xxP1
		for ; i+32 <= n; i += 32 {
			v1 = xxRound(v1, le64(b, i))
			v2 = xxRound(v2, le64(b, i+8))
			v3 = xxRound(v3, le64(b, i+16))
			v4 = xxRound(v4, le64(b, i+24))
		}
		h = bits.RotateLeft64(v1, 1) + bits.RotateLeft64(v2, 7) + bits.RotateLeft64(v3, 12) + bits.RotateLeft64(v4, 18)
		h = xxMerge(h, v1)
		h = xxMerge(h, v2)
		h = xxMerge(h, v3)
		h = xxMerge(h, v4)
	} else {
		h = s + xxP5
	}
	h += uint64(n)
	for ; i+8 <= n; i += 8 {
		h ^= xxRound(0, le64(b, i))
		h = bits.RotateLeft64(h, 27)*xxP1 + xxP4
	}
	if i+4 <= n {
		h ^= le32(b, i) * xxP1
		h = bits.RotateLeft64(h, 23)*xxP2 + xxP3
		i += 4
	}
	for ; i < n; i++ {
		h ^= uint64(b[i]) * xxP5
		h = bits.RotateLeft64(h, 11) * xxP1
	}
	return xxFmix(h)
}

// XxHash64Decimal is xxhash64's step for a DECIMAL of precision p.
func XxHash64Decimal(v decimal128.Num, p int32, seed int64) int64 {
	if p <= maxLongDigits {
		return XxHash64Long(int64(v.LowBits()), seed)
	}
	var buf [16]byte
	return XxHash64Bytes(decimalHashBytes(v, &buf), seed)
}
