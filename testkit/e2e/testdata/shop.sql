CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, city TEXT NOT NULL);
INSERT INTO customers VALUES (7, 'Ada Brook', 'Leeds'), (9, 'Ben -n Ford', 'York');
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, plant TEXT NOT NULL, quantity INTEGER NOT NULL);
INSERT INTO orders VALUES (1, 7, 'Fern', 2), (2, 7, 'Cactus', 1);
