package sqlfn

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"strconv"
	"strings"
)

// AES as Spark's aes_encrypt, aes_decrypt and try_aes_decrypt compute it
// (Java's AES/GCM/NoPadding, AES/CBC/PKCS5Padding and AES/ECB/PKCS5Padding):
// GCM writes its 12-byte IV, the ciphertext and a 16-byte tag; CBC its
// 16-byte IV and the ciphertext; ECB the ciphertext. An IV that is not given
// (or empty) is random, as on Spark: encryption is then not deterministic.
// Errors are Spark's, checked in its order (key length, mode and padding,
// IV, AAD); a decryption failure is AES_CRYPTO_ERROR with Java's detail
// message.

// aesMode is a mode and padding Spark supports, by their upper-case names.
func aesMode(mode, padding string) (string, bool) {
	m, p := strings.ToUpper(mode), strings.ToUpper(padding)
	switch {
	case m == "GCM" && (p == "NONE" || p == "DEFAULT"),
		(m == "CBC" || m == "ECB") && (p == "PKCS" || p == "DEFAULT"):
		return m, true
	}
	return "", false
}

// aesSetup checks the key and the mode as Spark does first, for both
// directions.
func aesSetup[K ~string | ~[]byte](key K, mode, padding string) (cipher.Block, string, *Error) {
	if n := len(key); n != 16 && n != 24 && n != 32 {
		return nil, "", &Error{Class: ClassInvalidParameterValue + ".AES_KEY_LENGTH",
			Msg: "The value of parameter(s) `key` in `aes_encrypt`/`aes_decrypt` is invalid: expects a binary value with 16, 24 or 32 bytes, but got " +
				strconv.Itoa(n) + " bytes."}
	}
	m, ok := aesMode(mode, padding)
	if !ok {
		return nil, "", &Error{Class: ClassUnsupportedFeature + ".AES_MODE",
			Msg: "The feature is not supported: AES-" + mode + " with the padding " + padding + " by the `aes_encrypt`/`aes_decrypt` function."}
	}
	b, err := aes.NewCipher([]byte(key))
	if err != nil {
		return nil, "", errAESCrypto(err.Error())
	}
	return b, m, nil
}

// AESEncrypt is aes_encrypt(input, key, mode, padding, iv, aad); an empty
// iv is a random one. It allocates its result.
func AESEncrypt[I, K, V, A ~string | ~[]byte](input I, key K, mode, padding string, iv V, aad A) ([]byte, *Error) {
	b, m, e := aesSetup(key, mode, padding)
	if e != nil {
		return nil, e
	}
	if len(iv) > 0 {
		want := map[string]int{"GCM": 12, "CBC": 16}[m]
		if want == 0 {
			return nil, &Error{Class: ClassUnsupportedFeature + ".AES_MODE_IV",
				Msg: "The feature is not supported: `aes_encrypt` with AES-" + mode + " does not support initialization vectors (IVs)."}
		}
		if len(iv) != want {
			return nil, &Error{Class: ClassInvalidParameterValue + ".AES_IV_LENGTH",
				Msg: "The value of parameter(s) `iv` in `aes_encrypt`/`aes_decrypt` is invalid: supports 16-byte CBC IVs and 12-byte GCM IVs, but got " +
					strconv.Itoa(len(iv)) + " bytes for " + mode + "."}
		}
	}
	if len(aad) > 0 && m != "GCM" {
		return nil, &Error{Class: ClassUnsupportedFeature + ".AES_MODE_AAD",
			Msg: "The feature is not supported: `aes_encrypt` with AES-" + mode + " does not support additional authenticate data (AAD)."}
	}
	in := []byte(input)
	switch m {
	case "GCM":
		g, err := cipher.NewGCM(b)
		if err != nil {
			return nil, errAESCrypto(err.Error())
		}
		out := aesIV(iv, 12)
		return g.Seal(out, out, in, []byte(aad)), nil
	case "CBC":
		out := aesIV(iv, 16)
		padded := pkcs5Pad(in)
		ct := make([]byte, len(padded))
		cipher.NewCBCEncrypter(b, out).CryptBlocks(ct, padded)
		return append(out, ct...), nil
	}
	padded := pkcs5Pad(in)
	for i := 0; i < len(padded); i += aes.BlockSize {
		b.Encrypt(padded[i:i+aes.BlockSize], padded[i:i+aes.BlockSize])
	}
	return padded, nil
}

// aesIV is a copy of iv, or n random bytes when it is empty.
func aesIV[V ~string | ~[]byte](iv V, n int) []byte {
	if len(iv) > 0 {
		return []byte(iv)
	}
	out := make([]byte, n)
	_, _ = rand.Read(out) // crypto/rand.Read does not fail (Go 1.24)
	return out
}

// pkcs5Pad pads to whole AES blocks, each padding byte the pad's length.
func pkcs5Pad(in []byte) []byte {
	n := aes.BlockSize - len(in)%aes.BlockSize
	out := make([]byte, len(in), len(in)+n)
	copy(out, in)
	for range n {
		out = append(out, byte(n))
	}
	return out
}

// pkcs5Unpad removes the padding, or fails as Java's PKCS5Padding does.
func pkcs5Unpad(p []byte) ([]byte, *Error) {
	if len(p) == 0 {
		return p, nil
	}
	n := int(p[len(p)-1])
	if n < 1 || n > aes.BlockSize || n > len(p) {
		return nil, errBadPadding()
	}
	for _, c := range p[len(p)-n:] {
		if int(c) != n {
			return nil, errBadPadding()
		}
	}
	return p[:len(p)-n], nil
}

// AESDecrypt is aes_decrypt(input, key, mode, padding, aad) (try_aes_decrypt
// is NULL for its errors). It allocates its result.
func AESDecrypt[I, K, A ~string | ~[]byte](input I, key K, mode, padding string, aad A) ([]byte, *Error) {
	b, m, e := aesSetup(key, mode, padding)
	if e != nil {
		return nil, e
	}
	in := []byte(input)
	switch m {
	case "GCM":
		switch {
		case len(in) < 12:
			return nil, errAESCrypto("Invalid buffer arguments")
		case len(in) < 12+16:
			return nil, &Error{Msg: "java.security.ProviderException: javax.crypto.ShortBufferException: Output buffer invalid"}
		}
		g, err := cipher.NewGCM(b)
		if err != nil {
			return nil, errAESCrypto(err.Error())
		}
		out, err := g.Open(nil, in[:12], in[12:], []byte(aad))
		if err != nil {
			return nil, errAESCrypto("Tag mismatch!")
		}
		return out, nil
	case "CBC":
		if len(in) < 16 {
			return nil, errAESCrypto("IV buffer too short for given offset/length combination")
		}
		ct := in[16:]
		if len(ct)%aes.BlockSize != 0 {
			return nil, errNotBlocks()
		}
		out := make([]byte, len(ct))
		cipher.NewCBCDecrypter(b, in[:16]).CryptBlocks(out, ct)
		return pkcs5Unpad(out)
	}
	if len(in)%aes.BlockSize != 0 {
		return nil, errNotBlocks()
	}
	out := make([]byte, len(in))
	for i := 0; i < len(in); i += aes.BlockSize {
		b.Decrypt(out[i:i+aes.BlockSize], in[i:i+aes.BlockSize])
	}
	return pkcs5Unpad(out)
}

//go:noinline
func errAESCrypto(detail string) *Error {
	return &Error{Class: ClassInvalidParameterValue + ".AES_CRYPTO_ERROR",
		Msg: "The value of parameter(s) `expr`, `key` in `aes_encrypt`/`aes_decrypt` is invalid: detail message: " + detail}
}

//go:noinline
func errBadPadding() *Error {
	return errAESCrypto("Given final block not properly padded. Such issues can arise if a bad key is used during decryption.")
}

//go:noinline
func errNotBlocks() *Error {
	return errAESCrypto("Input length must be multiple of 16 when decrypting with padded cipher")
}
