# A configuration split over two files: the server and backend here, the
# tools in tools.hcl.
server {
  name    = "multi"
  version = "0.1.0"
}

backend "sql" "db" {
  driver = "sqlite"
  dsn    = "file::memory:"
}
