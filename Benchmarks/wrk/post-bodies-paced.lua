-- As post-bodies.lua, each connection waiting DELAY_MS before each request: with C connections,
-- about C × 1000 / DELAY_MS requests a second (a steady rate, for latency at a given load; wrk
-- itself is closed-loop).
-- Usage: wrk -t1 -cC -dDs --latency -s post-bodies-paced.lua URL -- BODIES_FILE DELAY_MS
local bodies = {}
local next_index = 0
local pause = 10

function init(args)
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
  pause = tonumber(args[2]) or pause
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end

function delay()
  return pause
end

function request()
  next_index = next_index + 1
  if next_index > #bodies then next_index = 1 end
  return wrk.format(nil, "/v1/actions", nil, bodies[next_index])
end
