# Static resources, a template without a backend, and prompts with every
# kind of message content.
variable "greeting" {
  type    = string
  default = "Hello"
}

locals {
  pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
  intro = "${var.greeting}, reader"
}

resource "readme" {
  uri         = "docs://readme"
  description = "A greeting for the reader, as plain text."
  mime_type   = "text/plain"
  text        = local.intro
  audience    = ["user", "assistant"]
  priority    = 0.5
}

resource "pixel" {
  uri         = "images://pixel.png"
  description = "A one-pixel PNG image, for testing clients."
  mime_type   = "image/png"
  blob        = local.pixel
}

resource "notes" {
  uri         = "docs://notes"
  description = "The notes of this configuration, as Markdown."
  mime_type   = "text/markdown"
  file        = "notes.md"
}

resource_template "greeting" {
  uri_template = "greet://{name}/{lang}"
  description  = "A greeting in a language."
  mime_type    = "text/plain"
  arg "lang" {
    description = "The language of the greeting, such as en or fr."
    enum        = ["en", "fr"]
  }
  text = args.lang == "fr" ? "Bonjour ${args.name}" : "${var.greeting} ${args.name}"
}

prompt "describe" {
  description = "Describe a picture and a sound."
  arg "focus" {
    description = "What to look at."
    required    = false
  }
  message "user" {
    image {
      data      = local.pixel
      mime_type = "image/png"
    }
  }
  message "user" {
    audio {
      data      = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA="
      mime_type = "audio/wav"
    }
  }
  message "user" {
    resource {
      uri       = "docs://inline"
      mime_type = "text/plain"
      text      = "Inline text for ${coalesce(args.focus, "everything")}."
    }
  }
  message "assistant" {
    resource {
      uri = "docs://readme"
    }
  }
  message "user" {
    text = "Describe it, focusing on ${coalesce(args.focus, "anything")}."
  }
}
