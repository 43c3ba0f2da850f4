-- & | ^ over every pair of integer types: the result is the wider type's.
CREATE MATERIALIZED VIEW logic AS
SELECT id, t & t AS tt_and, t | t AS tt_or, t ^ t AS tt_xor, t & s AS ts_and, t | s AS ts_or, s ^ t AS st_xor,
  t & i AS ti_and, i | t AS it_or, t ^ l AS tl_xor, s & s AS ss_and, s | i AS si_or, i ^ s AS is_xor,
  s & l AS sl_and, l | s AS ls_or, i & i AS ii_and, i | l AS il_or, l ^ i AS li_xor, l & l AS ll_and,
  l | l AS ll_or, l ^ -1 AS l_flip, i & 0 AS i_zero, t | NULL AS t_null, NULL ^ l AS l_null,
  i & 255 AS low_byte, l | 1 AS l_one, s ^ CAST(-1 AS SMALLINT) AS s_flip
FROM rows;

-- ~ of each type keeps it (~x is -x - 1), and of an expression.
CREATE MATERIALIZED VIEW nots AS
SELECT id, ~t AS not_t, ~s AS not_s, ~i AS not_i, ~l AS not_l, ~~i AS not_not_i, ~(t & s) AS not_and,
  -~c AS neg_not, ~-c AS not_neg, ~CAST(NULL AS INT) AS not_null, ~c AS not_c
FROM rows;

-- << >> >>> of each type by an INT count, a BIGINT count and constants:
-- TINYINT, SMALLINT and INT shift as INT (modulo 32), BIGINT as BIGINT
-- (modulo 64); >>> shifts in zeros.
CREATE MATERIALIZED VIEW shifts AS
SELECT id, t << c AS t_shl, t >> c AS t_shr, t >>> c AS t_shru, s << c AS s_shl, s >> c AS s_shr, s >>> c AS s_shru,
  i << c AS i_shl, i >> c AS i_shr, i >>> c AS i_shru, l << c AS l_shl, l >> c AS l_shr, l >>> c AS l_shru,
  i << cl AS i_shl_l, l >>> cl AS l_shru_l, l >> cl AS l_shr_l,
  i << 31 AS i_shl31, i << 32 AS i_shl32, i >> 33 AS i_shr33, i >>> -1 AS i_shru_neg, l << 63 AS l_shl63,
  l << 64 AS l_shl64, l >> 65 AS l_shr65, l >>> -1 AS l_shru_neg, t << 7 AS t_shl7, t << 8 AS t_shl8,
  s << 15 AS s_shl15, s << 16 AS s_shl16, 1 << c AS one_shl, 1L << cl AS one_shl_l, i << NULL AS shl_null
FROM rows;

-- precedence as Spark's grammar has it: | looser than ^, ^ than &, & than
-- the shifts, the shifts than + and ||, and all of them tighter than the
-- comparisons.
CREATE MATERIALIZED VIEW precedence AS
SELECT id, i | l & s ^ t AS p1, (i | l) & s AS p2, i & 7 = 5 AS p3, t << 1 & 255 AS p4, c + 1 << 2 AS p5,
  l ^ i | s & t AS p6, i >> 1 >> 1 AS p7, i >>> 2 | 1 AS p8, ~i & i AS p9
FROM rows WHERE id <> 5 OR i | 1 IS NULL;
