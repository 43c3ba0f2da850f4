-- base64 (lines of 76 characters), unbase64 (Java's MIME decoder skips
-- what is not base64), hex of every kind, unhex (NULL for non-hex), bin.
CREATE MATERIALIZED VIEW encodings AS
SELECT id, base64(s) AS b64_s, base64(unhex(hx)) AS b64_b, base64(concat(s, s, s, s, s, s, s, s)) AS b64_long,
  unbase64(b64) AS unb64, hex(s) AS hex_s, hex(n) AS hex_n, hex(i) AS hex_i, hex(t) AS hex_t, hex(f) AS hex_f,
  hex(dec) AS hex_dec, hex(unhex(hx)) AS hex_b, unhex(hx) AS unhex_hx, unhex(s) AS unhex_s, bin(n) AS bin_n,
  bin(t) AS bin_t, bin(f) AS bin_f, bin(dec) AS bin_dec,
  url_encode(s) AS url_s, url_decode(url) AS url_d, try_url_decode(url) AS url_t, try_url_decode('%zz') AS url_bad,
  to_binary(hx) AS tb_default, to_binary(hx, 'hex') AS tb_hex, to_binary(s, 'utf-8') AS tb_utf8,
  to_binary(s, 'UTF8') AS tb_utf8b, try_to_binary(b64, 'base64') AS tb_b64, try_to_binary(s, 'hex') AS tb_bad_hex,
  try_to_binary(hx, 'utf-16') AS tb_bad_fmt,
  encode(s, 'utf-8') AS enc_utf8, encode(s, 'UTF-16') AS enc_utf16, encode(s, 'utf-16le') AS enc_le,
  encode(s, 'UTF-16BE') AS enc_be, encode(s, 'utf-32') AS enc_32,
  decode(encode(s, 'UTF-16'), 'UTF-16') AS dec_16, decode(encode(s, 'utf-32'), 'UTF-32') AS dec_32,
  decode(unhex(hx), 'ISO-8859-1') AS dec_latin1, decode(encode(s, 'utf-16le'), 'UTF-16LE') AS dec_le,
  decode(s, 'utf-8') AS dec_str
FROM rows;

-- UTF-8 validity: unhex of hx cast to a string holds invalid UTF-8 for
-- 'abc', '00ff' and the long one.
CREATE MATERIALIZED VIEW utf8 AS
SELECT id, is_valid_utf8(CAST(unhex(hx) AS STRING)) AS valid, is_valid_utf8(s) AS valid_s, is_valid_utf8(unhex(hx)) AS valid_b,
  make_valid_utf8(CAST(unhex(hx) AS STRING)) AS made, make_valid_utf8(unhex(hx)) AS made_b,
  make_valid_utf8(CAST(unhex(concat(hx, 'e282', 'eda080f4908080')) AS STRING)) AS made_parts,
  try_validate_utf8(CAST(unhex(hx) AS STRING)) AS tried, validate_utf8(s) AS validated,
  url_encode(CAST(unhex(concat(hx, 'e282')) AS STRING)) AS url_invalid
FROM rows;

-- Only where every value is valid: to_binary's strict base64, and the
-- single-byte charsets (a character they cannot hold is an error).
CREATE MATERIALIZED VIEW strict_encodings AS
SELECT id, to_binary(b64, 'base64') AS tb_b64, encode(s, 'US-ASCII') AS enc_ascii, encode(s, 'iso-8859-1') AS enc_latin1,
  decode(encode(s, 'US-ASCII'), 'us-ascii') AS dec_ascii
FROM rows WHERE id IN (1, 2, 5, 7);

-- AES: ECB and a given IV are deterministic; a random IV is not, so only
-- what it decrypts to and its length are compared.
CREATE MATERIALIZED VIEW aes AS
SELECT id, aes_encrypt(s, '0000111122223333', 'ECB') AS ecb, aes_encrypt(s, 'abcdefghijklmnop12345678', 'ecb', 'PKCS') AS ecb24,
  aes_encrypt(s, '0000111122223333', 'GCM', 'DEFAULT', unhex('000000000000000000000000'), 'aad') AS gcm_iv,
  aes_encrypt(unhex(hx), '00001111222233334444555566667777', 'CBC', 'DEFAULT', unhex('000102030405060708090a0b0c0d0e0f')) AS cbc_iv,
  aes_decrypt(aes_encrypt(s, '0000111122223333'), '0000111122223333') AS gcm_round,
  aes_decrypt(aes_encrypt(s, '0000111122223333', 'CBC'), '0000111122223333', 'CBC') AS cbc_round,
  aes_decrypt(aes_encrypt(s, '0000111122223333', 'GCM', 'NONE', '', 'x'), '0000111122223333', 'gcm', 'none', 'x') AS aad_round,
  length(aes_encrypt(s, '0000111122223333')) AS gcm_len,
  aes_decrypt(unhex('6E7CA17BBB468D3084B5744BCA729FB7B2B7BCB8E4472847D02670489D95FA97DBBA7D3210'), '0000111122223333', 'GCM') AS docs,
  try_aes_decrypt(unhex(hx), '0000111122223333') AS try_bad, try_aes_decrypt(aes_encrypt(s, '0000111122223333', 'ECB'), '0000111122223333', 'ECB') AS try_ok
FROM rows;
