-- A one-order database for the orders tests.
CREATE TABLE orders (
  id         INTEGER PRIMARY KEY,
  customer   TEXT    NOT NULL,
  status     TEXT    NOT NULL,
  total      NUMERIC NOT NULL,
  created_at TEXT    NOT NULL
);
INSERT INTO orders VALUES (1, 'Zoe', 'open', 12.50, '2026-03-01T10:00:00Z');
