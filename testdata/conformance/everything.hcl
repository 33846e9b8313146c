# The "everything" fixture of the official MCP conformance suite
# (@modelcontextprotocol/conformance), written in mcpdecl's own language
# from what the suite expects of its test server.
#
#   go run ./cmd/mcpdecl validate testdata/conformance/everything.hcl
#   ./scripts/conformance.sh          # serves it over HTTP and runs the suites
#
# Names, texts and data are the ones the suite asks for; do not rename them.
# Not here, because the language cannot express them yet (listed in
# expected-failures.txt): test_sampling, test_elicitation,
# test_elicitation_sep1034_defaults, test_elicitation_sep1330_enums,
# test_reconnection, and the 2026-07-28 input-required / trigger tools.

server {
  name         = "mcpdecl-conformance-everything"
  version      = "1.0.0"
  title        = "mcpdecl conformance fixture"
  instructions = "Fixture for the MCP conformance suite; every tool answers with fixed test data."
}

locals {
  # 1x1 PNG and a tiny WAV, as in the contract.
  png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
  wav = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="
}

# Every tool again as a toolset, served at /mcp/toolsets/everything, so
# that the suites also run against a toolset's endpoint.
toolset "everything" {
  description = "Every tool of the fixture."
  tools       = ["*"]
}

# ---------------------------------------------------------------- tools

tool "test_simple_text" {
  description = "Returns a simple text response for testing."
  content "text" {
    text = "This is a simple text response for testing."
  }
}

tool "test_image_content" {
  description = "Returns a 1x1 PNG image."
  content "image" {
    data      = local.png
    mime_type = "image/png"
  }
}

tool "test_audio_content" {
  description = "Returns a short WAV audio clip."
  content "audio" {
    data      = local.wav
    mime_type = "audio/wav"
  }
}

tool "test_embedded_resource" {
  description = "Returns an embedded text resource."
  content "resource" {
    uri       = "test://embedded-resource"
    mime_type = "text/plain"
    text      = "This is an embedded resource content."
  }
}

tool "test_multiple_content_types" {
  description = "Returns text, an image and an embedded resource in one result."
  content "text" {
    text = "Multiple content types test:"
  }
  content "image" {
    data      = local.png
    mime_type = "image/png"
  }
  content "resource" {
    uri       = "test://mixed-content-resource"
    mime_type = "application/json"
    text      = jsonencode({ test = "data", value = 123 })
  }
}

tool "test_error_handling" {
  description = "Always returns an error result, for testing error handling."
  result {
    text     = "'This tool intentionally returns an error for testing'"
    is_error = "true"
  }
}

# Each stderr line of the command becomes a notifications/message (info).
tool "test_tool_with_logging" {
  description = "Sends three log messages while it runs, about 50 ms apart."
  shell {
    command     = ["sh", "-c", "echo 'Tool execution started' >&2; sleep 0.05; echo 'Tool processing data' >&2; sleep 0.05; echo 'Tool execution completed' >&2; echo 'Logging test completed'"]
    allow_shell = true
    timeout     = "10s"
  }
  result {
    text = "'Tool with logging executed successfully'"
  }
}

# Each stdout line matching progress_pattern becomes a notifications/progress
# echoing the request's progress token: 0, 50, 100 of 100.
tool "test_tool_with_progress" {
  description = "Reports progress 0, 50 and 100 of 100 while it runs."
  shell {
    command          = ["sh", "-c", "echo 'progress 0/100'; sleep 0.05; echo 'progress 50/100'; sleep 0.05; echo 'progress 100/100'"]
    allow_shell      = true
    timeout          = "10s"
    progress_pattern = "^progress (\\d+)/(\\d+)$"
  }
  result {
    text = "'Progress test completed'"
  }
}

# 2026-07-28 suite (server-stateless): a tool that logs on stderr, called
# without _meta logLevel; no notifications/message may reach the client.
tool "test_logging_tool" {
  description = "Writes log lines on stderr; only a request that sets a log level should see them."
  shell {
    command     = ["sh", "-c", "echo 'log line 1' >&2; echo 'log line 2' >&2; echo 'log line 3' >&2"]
    allow_shell = true
    timeout     = "10s"
  }
  result {
    text = "'Logging tool completed'"
  }
}

tool "json_schema_2020_12_tool" {
  description = "A tool whose input schema uses JSON Schema 2020-12 keywords ($schema, $defs, $ref)."
  input_schema = {
    "$schema" = "https://json-schema.org/draft/2020-12/schema"
    type      = "object"
    "$defs" = {
      address = {
        "$anchor" = "address"
        type      = "object"
        properties = {
          street = { type = "string" }
          city   = { type = "string" }
        }
      }
    }
    properties = {
      name    = { type = "string" }
      address = { "$ref" = "#/$defs/address" }
    }
    additionalProperties = false
    # SEP-2106 (2026-07-28 suite): composition and conditional keywords are
    # kept verbatim too. Both are permissive, so any object passes.
    allOf = [
      { anyOf = [{ required = ["name"] }, { not = { required = ["name"] } }] },
    ]
    "if"   = { required = ["address"] }
    "then" = { properties = { address = { type = "object" } } }
    "else" = { properties = { name = { type = "string" } } }
  }
  result {
    text = "'JSON Schema 2020-12 tool called'"
  }
}

# 2026-07-28 suite (http-custom-header-server-validation, SEP-2243): a string
# parameter mirrored in an Mcp-Param-Region header, which the server checks.
tool "test_custom_header" {
  description = "Echoes a region that clients also send in the Mcp-Param-Region header."
  input_schema = {
    type = "object"
    properties = {
      region = {
        type           = "string"
        description    = "A region name, mirrored in Mcp-Param-Region."
        "x-mcp-header" = "Region"
      }
    }
    required = ["region"]
  }
  content "text" {
    text = "Region: ${args.region}"
  }
}

# ------------------------------------------------------------ resources

resource "static_text" {
  uri         = "test://static-text"
  name        = "Static Text Resource"
  description = "A static text resource for testing."
  mime_type   = "text/plain"
  text        = "This is the content of the static text resource."
}

resource "static_binary" {
  uri         = "test://static-binary"
  name        = "Static Binary Resource"
  description = "A static binary resource (a 1x1 PNG) for testing."
  mime_type   = "image/png"
  blob        = local.png
}

resource "watched_resource" {
  uri         = "test://watched-resource"
  name        = "Watched Resource"
  description = "A resource clients may subscribe to."
  mime_type   = "text/plain"
  text        = "Watched resource content"
}

# The 2026-07-28 suite reads this one without a session.
resource "stateless_static_text" {
  uri         = "test://stateless-static-text"
  name        = "Stateless Static Text Resource"
  description = "A static text resource for the stateless (2026-07-28) scenarios."
  mime_type   = "text/plain"
  text        = "This is the content of the stateless static text resource."
}

resource_template "template_data" {
  uri_template = "test://template/{id}/data"
  name         = "Resource Template"
  description  = "A resource template with an id parameter."
  mime_type    = "application/json"
  text         = jsonencode({ id = args.id, templateTest = true, data = "Data for ID: ${args.id}" })
}

# -------------------------------------------------------------- prompts

prompt "test_simple_prompt" {
  description = "A simple prompt without arguments."
  message "user" {
    text = "This is a simple prompt for testing."
  }
}

prompt "test_prompt_with_arguments" {
  description = "A prompt with two required arguments."
  arg "arg1" {
    description = "First test argument"
    completions = ["test", "testValue1", "testing", "other"]
  }
  arg "arg2" {
    description = "Second test argument"
  }
  message "user" {
    text = "Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'"
  }
}

prompt "test_prompt_with_embedded_resource" {
  description = "A prompt that embeds the resource named by its argument."
  arg "resourceUri" {
    description = "URI of the resource to embed"
  }
  message "user" {
    resource {
      uri       = args.resourceUri
      mime_type = "text/plain"
      text      = "Embedded resource content for testing."
    }
  }
  message "user" {
    text = "Please process the embedded resource above."
  }
}

prompt "test_prompt_with_image" {
  description = "A prompt with an image."
  message "user" {
    image {
      data      = local.png
      mime_type = "image/png"
    }
  }
  message "user" {
    text = "Please analyze the image above."
  }
}

tool "test_sampling" {
  description = "Asks the client's model to answer a prompt, then returns what it said."
  arg "prompt" {
    type        = string
    description = "The prompt for the model."
  }
  sample {
    prompt     = args.prompt
    max_tokens = 100
  }
  result {
    text = "'LLM response: ' + sample.text"
  }
}

tool "test_elicitation" {
  description = "Asks the user for a user name and an email address, then returns the answer."
  arg "message" {
    type        = string
    description = "What to ask the user."
  }
  elicit {
    message = args.message
    requested_schema = {
      type = "object"
      properties = {
        username = { type = "string", description = "Your user name" }
        email    = { type = "string", description = "Your email address" }
      }
      required = ["username", "email"]
    }
  }
  result {
    text = "'User response: action=' + elicit.action + ', content=' + toJSON(elicit.content)"
  }
}

tool "test_elicitation_sep1034_defaults" {
  description = "Asks the user with a form whose fields have defaults."
  elicit {
    message = "Please review and update the form fields with defaults"
    requested_schema = {
      type = "object"
      properties = {
        name     = { type = "string", description = "User name", default = "John Doe" }
        age      = { type = "integer", description = "User age", default = 30 }
        score    = { type = "number", description = "User score", default = 95.5 }
        status   = { type = "string", description = "User status", enum = ["active", "inactive", "pending"], default = "active" }
        verified = { type = "boolean", description = "Verification status", default = true }
      }
    }
  }
  result {
    text = "'Elicitation completed: action=' + elicit.action + ', content=' + toJSON(elicit.content)"
  }
}

tool "test_elicitation_sep1330_enums" {
  description = "Asks the user with titled, untitled, legacy and multi-select enum fields."
  elicit {
    message = "Please select options from the enum fields"
    requested_schema = {
      type = "object"
      properties = {
        untitledSingle = { type = "string", description = "Select one option", enum = ["option1", "option2", "option3"] }
        titledSingle = {
          type        = "string"
          description = "Select one option with titles"
          oneOf = [
            { const = "value1", title = "First Option" },
            { const = "value2", title = "Second Option" },
            { const = "value3", title = "Third Option" },
          ]
        }
        legacyEnum = {
          type        = "string"
          description = "Select one option (legacy)"
          enum        = ["opt1", "opt2", "opt3"]
          enumNames   = ["Option One", "Option Two", "Option Three"]
        }
        untitledMulti = {
          type        = "array"
          description = "Select multiple options"
          items       = { type = "string", enum = ["option1", "option2", "option3"] }
        }
        titledMulti = {
          type        = "array"
          description = "Select multiple options with titles"
          items = {
            anyOf = [
              { const = "value1", title = "First Choice" },
              { const = "value2", title = "Second Choice" },
              { const = "value3", title = "Third Choice" },
            ]
          }
        }
      }
    }
  }
  result {
    text = "'Elicitation completed: action=' + elicit.action + ', content=' + toJSON(elicit.content)"
  }
}

tool "test_input_required_result_elicitation" {
  description = "Asks for the caller's name, then greets them."
  elicit {
    key              = "user_name"
    message          = "What is your name?"
    requested_schema = { type = "object", properties = { name = { type = "string" } }, required = ["name"] }
  }
  result {
    text = "'Hello, ' + elicit.content.name + '!'"
  }
}

tool "test_input_required_result_sampling" {
  description = "Asks the client's model a question and returns its answer."
  sample {
    key        = "capital_question"
    prompt     = "What is the capital of France?"
    max_tokens = 100
  }
  result {
    text = "sample.text"
  }
}

tool "test_input_required_result_request_state" {
  description = "Asks for a confirmation; the answer comes back with the signed request state."
  elicit {
    key              = "confirm"
    message          = "Please confirm"
    requested_schema = { type = "object", properties = { ok = { type = "boolean" } }, required = ["ok"] }
  }
  result {
    text = "'state-ok: confirmed=' + string(elicit.content.ok)"
  }
}

tool "test_input_required_result_tampered_state" {
  description = "Asks for a confirmation; a changed request state is refused."
  elicit {
    key              = "confirm"
    message          = "Please confirm"
    requested_schema = { type = "object", properties = { ok = { type = "boolean" } }, required = ["ok"] }
  }
  result {
    text = "'confirmed'"
  }
}

tool "test_missing_capability" {
  description = "Needs the client's model (sampling); a client without that capability is told so."
  sample {
    prompt = "Say hello."
  }
  result {
    text = "sample.text"
  }
}

tool "test_streaming_elicitation" {
  description = "Asks the user a question; over 2026-07-28 the question comes back as an input_required result, never as a request on the stream."
  elicit {
    message          = "Continue?"
    requested_schema = { type = "object", properties = { ok = { type = "boolean" } } }
  }
  result {
    text = "'answered: ' + elicit.action"
  }
}

tool "test_input_required_result_list_roots" {
  description = "Asks the client for its roots, then lists them."
  roots {
    key = "client_roots"
  }
  result {
    text = "'Roots: ' + join(map(roots, #.uri), ', ')"
  }
}

tool "test_input_required_result_multiple_inputs" {
  description = "Asks the user, the model and the client's roots at once."
  elicit {
    key              = "user_name"
    message          = "What is your name?"
    requested_schema = { type = "object", properties = { name = { type = "string" } }, required = ["name"] }
  }
  sample {
    key        = "greeting"
    prompt     = "Generate a greeting"
    max_tokens = 50
  }
  roots {
    key = "client_roots"
  }
  result {
    text = "elicit.content?.name + ': ' + sample.text + ' (' + string(len(roots)) + ' roots)'"
  }
}

tool "test_input_required_result_multi_round" {
  description = "Asks two questions, one after the other."
  elicit {
    key              = "step1"
    message          = "Step 1: What is your name?"
    requested_schema = { type = "object", properties = { name = { type = "string" } }, required = ["name"] }
  }
  elicit {
    key              = "step2"
    round            = 2
    message          = "Step 2: What is your favorite color?"
    requested_schema = { type = "object", properties = { color = { type = "string" } }, required = ["color"] }
  }
  result {
    text = "answers.step1.content.name + ' likes ' + answers.step2.content.color"
  }
}

tool "test_input_required_result_capabilities" {
  description = "Asks the user and the model; a client that can only sample is only asked the model."
  elicit {
    key              = "user_name"
    message          = "What is your name?"
    requested_schema = { type = "object", properties = { name = { type = "string" } }, required = ["name"] }
  }
  sample {
    key        = "greeting"
    prompt     = "Generate a greeting"
    max_tokens = 50
  }
  result {
    text = "sample.text + ' (user: ' + elicit.action + ')'"
  }
}

prompt "test_input_required_result_prompt" {
  description = "Asks the user for context before building the prompt."
  elicit {
    key              = "user_context"
    message          = "What context should the prompt use?"
    requested_schema = { type = "object", properties = { context = { type = "string" } }, required = ["context"] }
  }
  message "user" {
    text = "Answer with this context in mind: ${answers.user_context.content.context}"
  }
}

# ---------------------------------------------------------------- tasks
# The tasks extension's fixtures (SEP-2663, 2026-07-28 suite; the
# 2025-11-25 tasks of the same tools are tested by the Go tests). A tool
# with a task block runs as a task for clients that can poll.

tool "greet" {
  description = "Says hello to someone by name (never a task)."
  arg "name" {
    type        = string
    description = "Who to greet."
  }
  content "text" {
    text = "Hello, ${args.name}!"
  }
}

tool "slow_compute" {
  description = "Waits the given number of seconds, then answers; a task for clients that can poll."
  arg "seconds" {
    type        = number
    minimum     = 0
    maximum     = 600
    description = "How long to work, in seconds."
  }
  arg "label" {
    type        = string
    required    = false
    description = "A name for the computation."
  }
  shell {
    command = ["sleep", args.seconds]
    timeout = "15m"
  }
  result {
    text = "'Computed ' + (args.label ?? 'a result') + ' in ' + string(args.seconds) + ' s'"
  }
  task {
    mode          = "optional"
    ttl           = "1h"
    poll_interval = "500ms"
  }
}

tool "failing_job" {
  description = "Works for a second, then reports that it failed; runs only as a task."
  shell {
    command = ["sleep", "1"]
    timeout = "1m"
  }
  result {
    text     = "'The job failed, as it always does.'"
    is_error = "true"
  }
  task {
    mode = "required"
  }
}

# Its result is larger than its tasks may keep, so the task fails with a
# protocol error (-32603) instead of completing.
tool "protocol_error_job" {
  description = "Builds a result too large for its task to keep, which fails the task."
  result {
    text = "'This result is longer than the sixteen bytes its task may keep.'"
  }
  task {
    max_result_bytes = 16
  }
}

tool "confirm_delete" {
  description = "Asks the user to confirm, then pretends to delete the file."
  arg "filename" {
    type        = string
    description = "The file to delete."
  }
  elicit {
    key              = "confirm"
    message          = "Delete ${args.filename}?"
    requested_schema = { type = "object", properties = { confirm = { type = "boolean" } }, required = ["confirm"] }
  }
  result {
    text = "'Deleted ' + args.filename + ' (confirmed: ' + string(elicit.content.confirm) + ')'"
  }
  task {
    poll_interval = "200ms"
  }
}

tool "multi_input" {
  description = "Asks the user two questions at once, then answers with both."
  elicit {
    key              = "name"
    message          = "What is your name?"
    requested_schema = { type = "object", properties = { name = { type = "string" } }, required = ["name"] }
  }
  elicit {
    key              = "confirm"
    message          = "Shall I go on?"
    requested_schema = { type = "object", properties = { confirm = { type = "boolean" } }, required = ["confirm"] }
  }
  result {
    text = "answers.name.content.name + ' confirmed: ' + string(answers.confirm.content.confirm)"
  }
  task {
    poll_interval = "200ms"
  }
}

# The question comes with the call itself (input_required); the task is
# created once it is answered.
tool "test_tool_with_task" {
  description = "Asks for the caller's name, then greets them from a task."
  elicit {
    key              = "user_name"
    message          = "What is your name?"
    requested_schema = { type = "object", properties = { name = { type = "string" } }, required = ["name"] }
  }
  result {
    text = "'Hello from a task, ' + elicit.content.name + '!'"
  }
  task {
    mode      = "required"
    ask_first = true
  }
}
