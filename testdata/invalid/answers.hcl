# Answers to elicit and sample questions are checked by name as arguments
# are: in expr-lang programs and in HCL messages alike.
backend "http" "api" {
  base_url = "http://127.0.0.1:1"
}

tool "summarise" {
  description = "Summarise a text with the client's model."
  arg "text" {
    type = string
  }
  sample {
    key    = "summary"
    prompt = "Summarise: ${args.text}"
  }
  result {
    text = "sample.txt" # ERROR: Invalid expression
  }
}

tool "summarise2" {
  description = "Summarise a text with the client's model."
  sample {
    key    = "summary"
    prompt = "Summarise this."
  }
  result {
    text = "answers.sumary.text" # ERROR: Invalid expression
  }
}

prompt "plan" {
  elicit {
    key              = "context"
    message          = "What is the plan about?"
    requested_schema = { type = "object", properties = { topic = { type = "string" } } }
  }
  message "user" {
    text = "Plan ${answers.contxt.content.topic}." # ERROR: Reference to unknown question key
  }
  message "assistant" {
    text = "About ${answers.context.contents.topic}." # ERROR: Reference to unknown field
  }
}

resource "today" {
  uri = "notes://today"
  http "api" {
    path = "/notes/${args.day}" # ERROR: Reference to undeclared argument
  }
}
