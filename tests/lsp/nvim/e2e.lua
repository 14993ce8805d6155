-- Neovim (0.7+, headless) against kernel-lsp with the built-in client: open a kernel whose
-- build.toml builds for 7.5 while it calls __reduce_add_sync (sm_80+), see the arch-mismatch
-- diagnostic, edit the call away, see it cleared, then stop the client (shutdown + exit → 0).
-- Run: KL_LSP_SERVER=... KL_LSP_FIXTURES=... nvim --headless --clean -c "luafile e2e.lua"
local server = os.getenv('KL_LSP_SERVER')
local fixtures = os.getenv('KL_LSP_FIXTURES')

local function finish(code, message)
  io.stdout:write('nvim e2e: ' .. message .. '\n')
  io.stdout:flush()
  vim.cmd(code == 0 and 'qall!' or 'cquit ' .. code)
end

local function code_of(diagnostic)
  if diagnostic.code then return diagnostic.code end
  local lsp = diagnostic.user_data and diagnostic.user_data.lsp
  return lsp and lsp.code
end

local function main()
  assert(server and fixtures, 'set KL_LSP_SERVER and KL_LSP_FIXTURES')
  local root = vim.fn.tempname()
  vim.fn.mkdir(root, 'p')
  vim.fn.system({ 'cp', '-r', fixtures .. '/.', root })
  local file = root .. '/reduce/csrc/reduce.cu'

  local exit_code
  local client_id = vim.lsp.start_client({
    name = 'kernel-lsp',
    cmd = { server, 'serve', '--stdio' },
    root_dir = root .. '/reduce',
    init_options = { debounceMs = 0 },
    flags = { debounce_text_changes = 0 },
    on_exit = function(code) exit_code = code end,
  })
  assert(client_id, 'the client did not start')

  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'cuda'
  assert(vim.lsp.buf_attach_client(bufnr, client_id), 'could not attach')

  local seen = vim.wait(120000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
  assert(seen, 'no diagnostic within 120 s')
  local diagnostic = vim.diagnostic.get(bufnr)[1]
  assert(code_of(diagnostic) == 'arch-mismatch', 'unexpected diagnostic: ' .. vim.inspect(diagnostic))
  assert(diagnostic.lnum == 6 and diagnostic.col == 10, 'wrong position: ' .. vim.inspect(diagnostic))
  assert(diagnostic.source == 'kernel-lsp', 'wrong source')

  -- Edit the bug away: a shuffle-based sum instead of __reduce_add_sync.
  vim.api.nvim_buf_set_lines(bufnr, 6, 7, false, { '  int s = __shfl_down_sync(0xffffffffu, v, 16) + v;' })
  local cleared = vim.wait(120000, function() return #vim.diagnostic.get(bufnr) == 0 end, 50)
  assert(cleared, 'the diagnostic was not cleared: ' .. vim.inspect(vim.diagnostic.get(bufnr)))

  vim.lsp.stop_client(client_id)
  assert(vim.wait(15000, function() return exit_code ~= nil end, 50), 'the server did not exit')
  assert(exit_code == 0, 'the server exited with ' .. tostring(exit_code))
  vim.fn.delete(root, 'rf')
end

local ok, err = pcall(main)
if ok then
  finish(0, 'passed')
else
  finish(1, 'FAILED: ' .. tostring(err))
end
