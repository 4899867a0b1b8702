-- POSTs the bodies of a file (one JSON body per line), each once, in order, to PATH
-- (default /v1/actions), with Authorization: Bearer TOKEN when one is given.
-- Usage: wrk -t1 -c64 -d20s --latency -s post-bodies.lua URL -- BODIES_FILE [PATH] [TOKEN]
-- With one wrk thread every request takes the next line; the file must hold more lines than
-- the run sends (a repeated line would be a duplicate, answered 200 instead of 202 or 201).
local bodies = {}
local next_index = 0
local path = "/v1/actions"

function init(args)
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
  if args[2] then path = args[2] end
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  if args[3] then wrk.headers["Authorization"] = "Bearer " .. args[3] end
end

function request()
  next_index = next_index + 1
  if next_index > #bodies then next_index = 1 end
  return wrk.format(nil, path, nil, bodies[next_index])
end
