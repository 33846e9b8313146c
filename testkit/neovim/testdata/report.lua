-- Run by the test after README's snippet (the init.lua) has opened the
-- file: waits for mcpdecl's diagnostics, asks for one definition and
-- one rename, and writes them, one per line, to $REPORT. Only APIs that
-- Neovim 0.7 (Debian 12's) and later both have.
local lines = { string.format('version %d.%d', vim.version().major, vim.version().minor) }

local arrived = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
if not arrived then table.insert(lines, 'error: no diagnostics within 60 seconds') end
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(lines, string.format('diagnostic %d:%d %s %s', d.lnum + 1, d.col + 1, tostring(d.code), d.message))
end

-- The position comes from the test (0-based line and UTF-16 character,
-- the same as bytes on the ASCII line it picks).
local params = {
  textDocument = { uri = vim.uri_from_bufnr(0) },
  position = { line = tonumber(os.getenv('DEF_LINE')), character = tonumber(os.getenv('DEF_CHAR')) },
}
local results, err = vim.lsp.buf_request_sync(0, 'textDocument/definition', params, 60000)
if err then table.insert(lines, 'error: ' .. tostring(err)) end
for _, r in pairs(results or {}) do
  if r.error then table.insert(lines, 'error: ' .. vim.inspect(r.error)) end
  local locations = r.result or {}
  if locations.uri or locations.targetUri then locations = { locations } end
  for _, loc in ipairs(locations) do
    local range = loc.targetSelectionRange or loc.range
    table.insert(lines, string.format('definition %s %d:%d',
      vim.uri_to_fname(loc.targetUri or loc.uri), range.start.line + 1, range.start.character + 1))
  end
end

-- Renaming the same argument: every edit of the workspace edit, as
-- Neovim receives it (changes, or documentChanges from some servers).
params.newName = 'max'
results, err = vim.lsp.buf_request_sync(0, 'textDocument/rename', params, 60000)
if err then table.insert(lines, 'error: ' .. tostring(err)) end
for _, r in pairs(results or {}) do
  if r.error then table.insert(lines, 'error: ' .. vim.inspect(r.error)) end
  local edit = r.result or {}
  local byURI = edit.changes or {}
  for _, dc in ipairs(edit.documentChanges or {}) do byURI[dc.textDocument.uri] = dc.edits end
  for uri, edits in pairs(byURI) do
    for _, e in ipairs(edits) do
      table.insert(lines, string.format('rename %s %d:%d-%d:%d %s', vim.uri_to_fname(uri),
        e.range.start.line + 1, e.range.start.character + 1, e.range['end'].line + 1, e.range['end'].character + 1, e.newText))
    end
  end
end

vim.fn.writefile(lines, os.getenv('REPORT'))
vim.cmd('qa!')
