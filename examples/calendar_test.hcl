# Tests of calendar.hcl; the calendar API is answered by mock blocks.

test "search events in a week" {
  call = tool.search_events
  args = { from = "2026-11-02", to = "2026-11-08", words = "planning" }
  mock "calendar" {
    request {
      path  = "/events"
      query = { from = "2026-11-02", to = "2026-11-08", q = "planning" }
    }
    response {
      json = [{ id = 4, title = "Planning meeting", date = "2026-11-03" }]
    }
  }
  expect {
    text       = "1 events between 2026-11-02 and 2026-11-08."
    structured = { "events[0].title" = "Planning meeting" }
  }
}

test "add event" {
  call = tool.add_event
  args = { title = "Retro", date = "2026-11-06" }
  mock "calendar" {
    request {
      method = "POST"
      path   = "/events"
      json   = { title = "Retro", date = "2026-11-06", minutes = 60 }
    }
    response {
      status = 201
      json   = { id = 12 }
    }
  }
  expect {
    text = "Added 'Retro' on 2026-11-06 (id 12)."
  }
}

test "a taken title is an error the model can act on" {
  call = tool.add_event
  args = { title = "Retro", date = "2026-11-06" }
  mock "calendar" {
    request {
      method = "POST"
      path   = "/events"
    }
    response {
      status = 409
      json   = { error = "exists" }
    }
  }
  expect {
    is_error = true
    text     = { contains = "There is already an event called 'Retro' on 2026-11-06" }
  }
}

test "a date in the wrong form is refused before any request" {
  call = tool.add_event
  args = { title = "Retro", date = "6 Nov" }
  expect {
    is_error = true
    text     = { contains = "Date '6 Nov' is not in YYYY-MM-DD form" }
  }
}
