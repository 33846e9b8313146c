'use strict';
// Whether a .hcl file is an mcpdecl configuration, for files that are not
// named *.mcp.hcl: other tools (Terraform, Packer, Nomad) write .hcl too,
// and the extension must not take their files. mcpdecl declares top-level
// blocks no other HCL tool has: tool, prompt, resource_template and
// toolset with one label, backends of its four kinds, and (for test files)
// a test block whose call names a tool or prompt. Terraform's resource and
// data blocks have two labels, so they never match; app is left out, since
// Waypoint has app "name" blocks too.
const mcpdeclBlock = /^[ \t]*(?:(?:tool|prompt|resource_template|toolset)[ \t]+"[^"\n]*"[ \t]*\{|backend[ \t]+"(?:http|sql|shell|mcp)"[ \t]+"[^"\n]*"[ \t]*\{|test[ \t]+"[^"\n]*"[ \t]*\{[^}]*\bcall[ \t]*=[ \t]*(?:tool|prompt)\.)/m;

// A first-line comment "# mcpdecl" (or "// mcpdecl") marks a file too; the
// language contribution of package.json matches the same line.
const firstLineMark = /^\s*(?:#|\/\/)\s*mcpdecl\b/;

function looksLikeMcpdecl(text) {
  return firstLineMark.test(text.split('\n', 1)[0]) || mcpdeclBlock.test(text);
}

module.exports = { looksLikeMcpdecl };
