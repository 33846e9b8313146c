# Files named by the arguments, each inside a folder the configuration
# fixes.
server {
  name    = "files"
  version = "0.1.0"
}

resource_template "config_file" {
  uri_template = "configs://{name}"
  description  = "One configuration file of the multi folder, by name."
  mime_type    = "text/plain"
  text         = file("multi", args.name)
}

resource_template "config_tree" {
  uri_template = "tree://{+path}"
  description  = "One file under the multi folder, by path, as base64."
  blob         = filebase64("multi", "${args.path}")
}

prompt "review" {
  description = "Review one file of the configuration."
  arg "name" {
    description = "The file, e.g. tools.hcl."
  }
  message "user" {
    text = "Review this:\n${file("multi", args.name)}\nThe policy is: ${file("notes.md")}"
  }
}
