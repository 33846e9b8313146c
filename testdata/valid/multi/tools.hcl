tool "count_rows" {
  description = "Count the rows of the demo table whose name starts with a prefix."
  arg "prefix" {
    description = "Text to put before the answer."
    type        = string
    default     = ""
  }
  sql "db" {
    query = "SELECT count(*) AS n FROM demo WHERE name LIKE ${args.prefix} || '%'"
  }
}
