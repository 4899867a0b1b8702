-- POSTs the bodies of a file (one JSON body per line) to /v1/actions, each once, in order.
-- Usage: wrk -t1 -c64 -d20s --latency -s post-bodies.lua URL -- BODIES_FILE
-- With one wrk thread every request takes the next line; the file must hold more lines than
-- the run sends (a repeated line would be a duplicate, answered 200 instead of 202).
local bodies = {}
local next_index = 0

function init(args)
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  next_index = next_index + 1
  if next_index > #bodies then next_index = 1 end
  return wrk.format(nil, "/v1/actions", nil, bodies[next_index])
end
