-- Neovim (0.7+, headless) builds a reference kernel through kernel-lsp: the
-- kernel-lsp.build command through workspace/executeCommand, then the client's own code lens
-- machinery (vim.lsp.codelens.refresh / get). Every usage lens must show the registers and
-- spills that `nvcc -Xptxas -v`, run here with build.toml's capabilities and flags, reports for
-- its kernel; a planted compile error must become a diagnostic of the buffer on its line.
-- Run: KL_LSP_SERVER=... KL_KERNELS=.../kernels KL_NVCC=... KL_KERNEL=geglu nvim --headless --clean -c "luafile build.lua"
local server = os.getenv('KL_LSP_SERVER')
local kernels = os.getenv('KL_KERNELS')
local nvcc = os.getenv('KL_NVCC')
local kernel = os.getenv('KL_KERNEL') or 'geglu'

local function finish(code, message)
  io.stdout:write('nvim build: ' .. message .. '\n')
  io.stdout:flush()
  vim.cmd(code == 0 and 'qall!' or 'cquit ' .. code)
end

-- build.toml's first kernel section: capabilities, flags, the first .cu source.
local function kernel_section(project)
  local text = table.concat(vim.fn.readfile(project .. '/build.toml'), '\n')
  local block = text:match('%[kernel%.[^%]]+%](.*)')
  local function array(key)
    local body = block:match(key .. '%s*=%s*(%b[])') or '[]'
    local out = {}
    for item in body:gmatch('"([^"]*)"') do table.insert(out, item) end
    return out
  end
  local source
  for _, s in ipairs(array('src')) do
    if s:match('%.cu$') and not source then source = s end
  end
  local torch = false
  for _, d in ipairs(array('depends')) do
    if d == 'torch' then torch = true end
  end
  return { caps = array('cuda%-capabilities'), flags = array('cuda%-flags'), source = source, torch = torch }
end

local function base_name(demangled)
  local name = demangled
  local angle, depth, paren = 0, 0, nil
  for i = 1, #name do
    local c = name:sub(i, i)
    if c == '<' then angle = angle + 1
    elseif c == '>' then angle = angle - 1
    elseif c == '(' then
      if angle == 0 and depth == 0 then paren = i end
      depth = depth + 1
    elseif c == ')' then depth = depth - 1 end
  end
  if paren then name = name:sub(1, paren - 1) end
  name = vim.trim(name)
  if name:sub(-1) == '>' then
    local d = 0
    for i = #name, 1, -1 do
      local c = name:sub(i, i)
      if c == '>' then d = d + 1 elseif c == '<' then
        d = d - 1
        if d == 0 then name = name:sub(1, i - 1) break end
      end
    end
  end
  return name:match('([%w_]+)$')
end

-- {["kernel@sm_90"] = {min, max, spill}} from nvcc -Xptxas -v of every capability.
local function nvcc_usage(project, section)
  local usage, entries = {}, {}
  for _, cap in ipairs(section.caps) do
    local digits = cap:gsub('%.', '')
    local args = { nvcc, '-std=c++17', '-gencode=arch=compute_' .. digits .. ',code=sm_' .. digits, '-Xptxas', '-v',
                   '-c', '-o', '/dev/null', '-DUSE_CUDA=1', '-DCUDA_KERNEL' }
    -- kernel-builder's own additions: torch's CMake CUDA flags for sections that depend on torch.
    if section.torch then
      table.insert(args, '--expt-relaxed-constexpr')
      table.insert(args, '--expt-extended-lambda')
    end
    for _, f in ipairs(section.flags) do table.insert(args, f) end
    table.insert(args, project .. '/' .. section.source)
    local current
    for _, line in ipairs(vim.fn.systemlist(args)) do
      local mangled, target = line:match("Compiling entry function '([^']+)' for '(sm_%w+)'")
      if mangled then
        current = { mangled = mangled, target = target, regs = 0, spill = 0 }
        table.insert(entries, current)
      end
      local stores, loads = line:match('(%d+) bytes spill stores, (%d+) bytes spill loads')
      if stores and current then current.spill = tonumber(stores) + tonumber(loads) end
      local regs = line:match('Used (%d+) registers')
      if regs and current then current.regs = tonumber(regs) end
    end
  end
  local mangled = {}
  for _, e in ipairs(entries) do table.insert(mangled, e.mangled) end
  local names = vim.fn.systemlist(vim.list_extend({ 'c++filt' }, mangled))
  for i, e in ipairs(entries) do
    local key = base_name(names[i] or e.mangled) .. '@' .. e.target
    local u = usage[key] or { min = e.regs, max = e.regs, spill = 0 }
    u.min = math.min(u.min, e.regs)
    u.max = math.max(u.max, e.regs)
    u.spill = math.max(u.spill, e.spill)
    usage[key] = u
  end
  return usage
end

local function parse_lens(title)
  local target, rest = title:match('^(sm_%w-)[ :]')
  if not target then return nil end
  local min, max = title:match(': (%d+)–(%d+) regs')
  if not min then
    min = title:match(': (%d+) regs')
    max = min
  end
  local spill, unit = title:match('regs · ([%d%.]+) (K?i?B) spill')
  if not (min and spill) then return nil end
  spill = tonumber(spill) * (unit == 'KiB' and 1024 or 1)
  return { target = target, min = tonumber(min), max = tonumber(max), spill = spill }
end

local function request(client, method, params, timeout)
  local done, result, err = false, nil, nil
  client.request(method, params, function(e, r) err, result, done = e, r, true end)
  assert(vim.wait(timeout, function() return done end, 50), method .. ' did not answer in time')
  return result, err
end

local function main()
  assert(server and kernels and nvcc, 'set KL_LSP_SERVER, KL_KERNELS and KL_NVCC')
  if vim.fn.executable(nvcc) == 0 then
    finish(77, 'skipped: no nvcc at ' .. tostring(nvcc))
    return
  end
  local root = vim.fn.tempname()
  vim.fn.mkdir(root, 'p')
  vim.fn.system({ 'cp', '-r', kernels .. '/' .. kernel, root })
  local project = root .. '/' .. kernel
  local section = kernel_section(project)
  local file = project .. '/' .. section.source

  local exit_code
  local client_id = vim.lsp.start_client({
    name = 'kernel-lsp',
    cmd = { server, 'serve', '--stdio' },
    root_dir = project,
    init_options = { debounceMs = 0 },
    on_exit = function(code) exit_code = code end,
  })
  assert(client_id, 'the client did not start')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'cuda'
  assert(vim.lsp.buf_attach_client(bufnr, client_id), 'could not attach')
  local client = vim.lsp.get_client_by_id(client_id)
  assert(vim.wait(30000, function() return client.initialized end, 50), 'not initialized')

  local result, err = request(client, 'workspace/executeCommand',
    { command = 'kernel-lsp.build', arguments = { { project = vim.uri_from_fname(project) } } }, 600000)
  assert(not err, 'build failed: ' .. vim.inspect(err))
  assert(result.ok, 'build not ok: ' .. vim.inspect(result.units))

  vim.lsp.codelens.refresh()
  local expected = nvcc_usage(project, section)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local checked = 0
  -- A kernel's usage lens is a short summary; its argument's details have one line per target.
  local function usage_details(lens)
    local args = lens.command and lens.command.command == 'kernel-lsp.showUsage' and lens.command.arguments
    return args and args[1] and args[1].details
  end
  assert(vim.wait(60000, function()
    for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
      if usage_details(lens) then return true end
    end
    return false
  end, 100), 'no usage lens: ' .. vim.inspect(vim.lsp.codelens.get(bufnr)))
  for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
    local details = usage_details(lens)
    for line in (details or ''):gmatch('[^\n]+') do
      local usage = parse_lens(line)
      if usage then
        local r = lens.range
        local name = lines[r.start.line + 1]:sub(r.start.character + 1, r['end'].character)
        local want = expected[name .. '@' .. usage.target]
        assert(want, 'nvcc reports no ' .. name .. '@' .. usage.target .. ': ' .. vim.inspect(expected))
        assert(want.min == usage.min and want.max == usage.max and want.spill == usage.spill,
          line .. ' vs nvcc ' .. vim.inspect(want))
        checked = checked + 1
      end
    end
  end
  assert(checked > 0, 'no lens checked')

  -- A planted compile error, saved to disk (builds read the files), shows on its line.
  local at
  for i, l in ipairs(lines) do
    if not at and l:match('__global__') then at = i end
  end
  local body = at
  while not lines[body]:find('{', 1, true) do body = body + 1 end
  local planted = vim.deepcopy(lines)
  table.insert(planted, body + 1, '  int kl_planted = kl_undefined_symbol;')
  vim.fn.writefile(planted, file)
  result, err = request(client, 'workspace/executeCommand',
    { command = 'kernel-lsp.build', arguments = { { project = vim.uri_from_fname(project) } } }, 600000)
  assert(not err and result and result.ok == false, 'the planted error did not fail the build')
  assert(vim.wait(30000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.message:match('kl_undefined_symbol') then return d.lnum == body end
    end
    return false
  end, 50), 'no diagnostic on line ' .. body .. ': ' .. vim.inspect(vim.diagnostic.get(bufnr)))

  vim.lsp.stop_client(client_id)
  assert(vim.wait(15000, function() return exit_code ~= nil end, 50), 'the server did not exit')
  assert(exit_code == 0, 'the server exited with ' .. tostring(exit_code))
  vim.fn.delete(root, 'rf')
  io.stdout:write('nvim build: ' .. checked .. ' lenses checked\n')
end

local ok, err = pcall(main)
if ok then
  finish(0, 'passed')
else
  finish(1, 'FAILED: ' .. tostring(err))
end
