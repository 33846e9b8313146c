-- The members of two teams (tenants) for examples/team.hcl.
CREATE TABLE members (
  tenant   TEXT NOT NULL,
  name     TEXT NOT NULL,
  role     TEXT NOT NULL,
  added_by TEXT NOT NULL,
  PRIMARY KEY (tenant, name)
);
INSERT INTO members (tenant, name, role, added_by) VALUES
  ('acme', 'Ada', 'lead', 'setup'),
  ('acme', 'Brian', 'developer', 'setup'),
  ('globex', 'Chen', 'lead', 'setup');
