# Each loop among local values is reported once, at its own first member;
# a local that only uses a loop gets no message of its own.
locals {
  host = local.url # ERROR: Cycle in local values
  url  = "http://${local.host}"

  a = local.b # ERROR: Cycle in local values
  b = local.c
  c = local.a

  uses_loop = local.a
  self      = "${local.self}!" # ERROR: Cycle in local values
  fine      = "ok"
}
