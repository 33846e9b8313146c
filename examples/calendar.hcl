# A calendar service: search events and add new ones. The date argument is
# checked before anything is sent, and a wrong date gets a message the model
# can act on.

server {
  name    = "calendar"
  version = "0.3.0"
  title   = "Team calendar"
}

variable "calendar_url" {
  type    = string
  default = "http://127.0.0.1:3100/api"
}

backend "http" "calendar" {
  base_url = var.calendar_url
  timeout  = "10s"
}

locals {
  date_pattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
}

tool "search_events" {
  title       = "Search events"
  description = "List events between two dates, optionally only those whose title contains some words."
  annotations {
    read_only = true
  }
  arg "from" {
    type        = string
    description = "First day, YYYY-MM-DD."
    pattern     = local.date_pattern
  }
  arg "to" {
    type        = string
    description = "Last day, YYYY-MM-DD."
    pattern     = local.date_pattern
  }
  arg "words" {
    type        = string
    description = "Words the title must contain."
    required    = false
  }

  http "calendar" {
    path  = "/events"
    query = { from = args.from, to = args.to, q = coalesce(args.words, "") }
  }

  result {
    structured = "{'events': body}"
    text       = "{{ len(body) }} events between {{ args.from }} and {{ args.to }}."
  }
}

tool "add_event" {
  title       = "Add an event"
  description = "Add an event to the team calendar on one day."
  # Adding an event changes nothing that was there; adding it twice is
  # refused as a duplicate (409), so a retry does no harm.
  annotations {
    destructive = false
    idempotent  = true
  }
  arg "title" {
    type        = string
    description = "What the event is, e.g. 'Planning meeting'."
    min_length  = 1
    max_length  = 200
  }
  arg "date" {
    type        = string
    description = "The day of the event, YYYY-MM-DD, e.g. 2026-11-03."
    validation {
      condition     = can(regex(local.date_pattern, args.date))
      error_message = "Date '${args.date}' is not in YYYY-MM-DD form. Try again, for example 2026-11-03."
    }
  }
  arg "minutes" {
    type        = integer
    description = "How long it lasts, in minutes."
    default     = 60
    minimum     = 5
    maximum     = 600
  }

  http "calendar" {
    method = "POST"
    path   = "/events"
    body   = { title = args.title, date = args.date, minutes = args.minutes }
  }

  error {
    when    = "status == 409"
    message = "There is already an event called '{{ args.title }}' on {{ args.date }}. Pick another title or day."
  }
  result {
    text = "Added '{{ args.title }}' on {{ args.date }} (id {{ body?.id ?? 'unknown' }})."
  }
}
