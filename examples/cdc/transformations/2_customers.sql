-- The latest state per customer.
CREATE STREAMING TABLE customers (
  CONSTRAINT email_present EXPECT (email IS NOT NULL)
)
COMMENT 'current customers (SCD type 1)';

CREATE FLOW customers AS AUTO CDC INTO customers
FROM STREAM(customer_changes)
KEYS (id)
IGNORE NULL UPDATES
APPLY AS DELETE WHEN op = 'DELETE'
SEQUENCE BY seq
COLUMNS * EXCEPT (op, changed_at)
STORED AS SCD TYPE 1;

-- The full history of name and city changes.
CREATE STREAMING TABLE customers_history;

CREATE FLOW customers_history AS AUTO CDC INTO customers_history
FROM STREAM(customer_changes)
KEYS (id)
APPLY AS DELETE WHEN op = 'DELETE'
SEQUENCE BY seq
COLUMNS * EXCEPT (op)
STORED AS SCD TYPE 2
TRACK HISTORY ON name, city;
