-- The orders example database. mcpdecl creates orders.db from this file
-- when it is missing (see README.md).
CREATE TABLE IF NOT EXISTS orders (
  id         INTEGER PRIMARY KEY,
  customer   TEXT    NOT NULL,
  status     TEXT    NOT NULL CHECK (status IN ('open', 'shipped', 'cancelled')),
  total      NUMERIC NOT NULL,
  created_at TEXT    NOT NULL
);

INSERT INTO orders (id, customer, status, total, created_at) VALUES
  (1, 'Ada',    'open',      120.50, '2026-10-01T09:12:00Z'),
  (2, 'Ada',    'shipped',    35.00, '2026-10-02T10:00:00Z'),
  (3, 'Brian',  'open',       18.99, '2026-10-03T11:30:00Z'),
  (4, 'Chen',   'cancelled',  250.00, '2026-10-04T08:45:00Z'),
  (5, 'Chen',   'open',        74.10, '2026-10-05T16:20:00Z'),
  (6, 'Dolores','shipped',    990.00, '2026-10-06T13:05:00Z'),
  (7, 'Brian',  'shipped',     12.00, '2026-10-07T07:55:00Z'),
  (8, 'Ada',    'open',        60.00, '2026-10-08T18:40:00Z');
