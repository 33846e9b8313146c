# Scopes and auth.* in a configuration without an auth block.
backend "http" "shop" {
  base_url = "http://127.0.0.1:9000"
}

tool "orders" {
  description = "List orders."
  scopes      = ["orders:read"] # ERROR: Scopes without an auth block
  http "shop" {
    path  = "/orders"
    query = { tenant = auth.claims.tenant } # ERROR: Identity field not available here
  }
}
