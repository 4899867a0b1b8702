# Shared by the load scripts (source it): the upstream sink — nginx (Debian's nginx-light) on
# loopback answering `return 204`, one log line per call: `$msec $http_webhook_id
# $http_webhook_endpoint`. Needs $work (a scratch folder).

# start_sink PORT : starts the sink on 127.0.0.1:PORT (sets $nginx_pid) and returns once it
# accepts connections.
start_sink() {
    mkdir -p "$work/nginx/logs"
    cat >"$work/nginx/nginx.conf" <<CONF
daemon off;
worker_processes 1;
error_log $work/nginx/logs/error.log;
pid $work/nginx/nginx.pid;
events { worker_connections 4096; }
http {
    log_format calls '\$msec \$http_webhook_id \$http_webhook_endpoint';
    access_log $work/nginx/logs/calls.log calls buffer=64k flush=100ms;
    keepalive_requests 1000000;
    keepalive_timeout 120s;
    client_body_temp_path $work/nginx/body;
    server {
        listen 127.0.0.1:$1;
        location / { return 204; }
    }
}
CONF
    nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" &
    nginx_pid=$!
    for _ in $(seq 1 200); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.05; done
    echo "the sink did not start on port $1" >&2
    return 1
}

# sink_calls : how many calls the sink has logged so far.
sink_calls() { wc -l <"$work/nginx/logs/calls.log" 2>/dev/null || echo 0; }

# flush_sink : has nginx reopen (and so flush) its call log.
flush_sink() {
    kill -HUP "$nginx_pid" 2>/dev/null || true
    sleep 0.3  # nginx reopens its log asynchronously
}
