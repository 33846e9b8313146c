# file() and filebase64() with a path from the arguments: the file must be
# named inside a folder the configuration fixes.
backend "http" "api" {
  base_url = "http://127.0.0.1:9"
}

resource_template "notes" {
  uri_template = "notes://{name}"
  text         = file("multi/${args.name}") # ERROR: File path from the arguments
}

resource_template "raw" {
  uri_template = "raw://{+path}"
  blob         = filebase64(args.path) # ERROR: File path from the arguments
}

resource_template "computed_folder" {
  uri_template = "cf://{dir}/{name}"
  text         = file(args.dir, args.name) # ERROR: Folder from the arguments
}

resource_template "no_folder" {
  uri_template = "nf://{name}"
  text         = file("no-such-folder", args.name) # ERROR: Folder not found
}

tool "send" {
  description = "Send a stored payload."
  arg "kind" {
    type = string
  }
  http "api" {
    method   = "POST"
    path     = "/send"
    raw_body = file("payloads/${args.kind}.json") # ERROR: File path from the arguments
    content_type = "application/json"
  }
}

prompt "note" {
  description = "Discuss a note."
  arg "name" {
    description = "The note."
  }
  message "user" {
    text = "Read this: ${file("multi/${args.name}")}" # ERROR: File path from the arguments
  }
}
