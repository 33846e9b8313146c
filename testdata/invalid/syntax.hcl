# A syntax error stops decoding of the file: nothing else is reported.
tool "x" {
  = 1 # ERROR: Argument or block definition required
  description = var.nope
}
