# Two apps (one page in a file, one inline) and the tools that use them,
# for the MCP Apps wire tests.
server {
  name    = "apps"
  version = "1.0.0"
}

app "dashboard" {
  uri            = "ui://orders/dashboard"
  title          = "Order dashboard"
  description    = "A chart of the order totals per customer."
  file           = "apps/dashboard.html"
  prefers_border = true
  domain         = "orders.example.com"
  csp {
    connect_domains  = ["https://api.example.com"]
    resource_domains = ["https://*.cdn.example.com", "http://localhost:8080"]
  }
  permissions = ["clipboard_write", "camera"]
}

app "plain" {
  uri  = "ui://orders/plain"
  html = "<p>No head, no policy of its own.</p>"
}

tool "customer_totals" {
  description = "Order totals per customer, shown in the dashboard."
  ui {
    app = "dashboard"
  }
  content "text" {
    text = "{\"alice\": 42}"
  }
}

tool "refresh_totals" {
  description = "Recomputes the totals; only the dashboard calls it."
  ui {
    app        = "dashboard"
    visibility = ["app"]
  }
  content "text" {
    text = "done"
  }
}

tool "plain_tool" {
  description = "A tool with no app at all, for contrast."
  content "text" {
    text = "plain"
  }
}
