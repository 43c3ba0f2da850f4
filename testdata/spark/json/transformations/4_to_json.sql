-- to_json of structs, arrays and maps: NULL fields left out (a NULL
-- element or map value is null), doubles and floats as Java prints them,
-- NaN as a string, decimals as BigDecimal.toString (1.0E-7), dates,
-- base64 binaries, integer map keys as strings, and strings escaped as
-- Jackson escapes them (control characters, characters beyond the BMP).
CREATE MATERIALIZED VIEW written AS
SELECT id, to_json(named_struct('id', id, 'j', j, 'p', p, 'keys', json_object_keys(j), 'len', json_array_length(j),
    'third', CAST(id AS DOUBLE) / 3, 'big', CAST(id AS DOUBLE) * 1e20, 'f', CAST(id / 4 AS FLOAT), 'nan', CAST('NaN' AS DOUBLE),
    'dec', CAST(id AS DECIMAL(10,2)), 'tiny', CAST('0.00000010' AS DECIMAL(10,8)), 'day', date_add(DATE'2024-02-28', CAST(id AS INT)),
    'bin', CAST(p AS BINARY), 'flag', id % 2 = 0, 's', get_json_object(j, '$.s'),
    'inner', named_struct('x', get_json_object(j, '$.a'), 'y', CAST(NULL AS INT)))) AS st,
  to_json(array(j, NULL, p)) AS arr, to_json(map('k', id, 'n', CAST(NULL AS BIGINT))) AS m, to_json(map(id, p)) AS int_keys,
  to_json(json_object_keys(j)) AS keys, to_json(array(map('a', array(id)), map('b', array(id, NULL)))) AS deep
FROM docs;
