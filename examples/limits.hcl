# Limits: token buckets on tools/call. Each caller gets 30 calls a
# minute (10 at once after a quiet time), the costly lookup 5 an hour
# whoever calls, and the whole server 50 a second. A refused call is a
# tool error that names the limit and says when to retry. With an auth
# block a caller is a token's subject; here, without one, it is the stdio
# client or a 2025 HTTP session (anonymous 2026-07-28 clients share one
# bucket). Serve it with an audit trail as in "Limits and audit" in
# README.md.

server {
  name    = "limits"
  version = "1.0.0"
  title   = "Rate-limited tools"
}

limit "per_caller" {
  per   = "caller"
  rate  = "30/minute"
  burst = 10
}

limit "costly_lookups" {
  per   = "tool"
  rate  = "5/hour"
  tools = ["lookup_*"]
}

limit "whole_server" {
  per  = "server"
  rate = "50/second"
}

tool "greet" {
  title       = "Greet"
  description = "Say hello to someone."
  arg "name" {
    type        = string
    description = "Whom to greet."
    min_length  = 1
  }
  annotations {
    read_only = true
  }
  result {
    text = "'Hello, ' + args.name + '!'"
  }
}

tool "lookup_word" {
  title       = "Look up a word"
  description = "The length and first letter of a word: stands for a lookup that costs money, limited to 5 an hour."
  arg "word" {
    type        = string
    description = "The word to look up."
    min_length  = 1
  }
  annotations {
    read_only = true
  }
  result {
    structured = "{'word': args.word, 'letters': len(args.word), 'first': upper(args.word[0:1])}"
    text       = "args.word + ': ' + string(len(args.word)) + ' letters'"
  }
}
