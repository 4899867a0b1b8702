#!/usr/bin/env python3
"""Where an accept's CPU goes, by stage, from `perf script -F comm,ip,sym | swift demangle --simplified`.

Each sample is given to a stage by its stack: the outermost frame (root first) that names a stage
of the accept path wins, so a JSON decode inside the token's verification counts as the token, not
as reading the body. Samples naming no stage are split by thread: NIO's event loops (sockets, HTTP
parsing and writing), the scheduler (a thread woken or put to sleep: the hops between the
cooperative pool, NIO and the database's writer), and the rest of the cooperative pool (async
resumptions, whose stacks start at the resumed part of a function and so name no caller).

Usage: accept-stages.py CPU_US_PER_REQUEST SCRIPT.txt   → one "stage µs share" line per stage
"""
import re
import sys

STAGES = [
    ("token (jwt-kit verify)", r"ActionTokens\.verify|JWTKeyCollection|JWTSigner|JWTParser|HMACSigner|AppTokens"),
    ("payload binding (pld)", r"checkPayload|PayloadDigest|canonicalJSON|sentPayload"),
    ("catalog check", r"Catalog\.validate|ActionResponse\.init"),
    ("body read and decode", r"JSONRequestReader|ActionRequestBody|CeilingBody|JSONDecoder"),
    ("storage (transaction, driver)", r"GRDB|sqlite3|GroupCommitter|SQLiteActionStore|Postgres|PSQL|StorageGate|\.accept\(_:\) in conformance"),
    ("tracing, logs, metrics", r"withSpan|Tracing|Instrumentation|SpanAttribute|LegacyTracer|Logger|LogHandler|Metrics|Counter|Prometheus|TraceParent"),
    ("response and router", r"ActionAnswer|Problem|RouterResponder|RouterTrie|Middleware|Router\."),
]
SCHEDULER = re.compile(r"schedule|futex|finish_task_switch|swift_task_switch|swift_job_run|dispatch|pthread_cond|NSCondition|"
                       r"try_to_wake_up|do_nanosleep|epoll_wait|__x64_sys_futex|wake_up|select_task_rq|enqueue_task")
compiled = [(name, re.compile(pattern)) for name, pattern in STAGES]


def classify(comm, frames):
    for frame in reversed(frames):  # root first
        for name, pattern in compiled:
            if pattern.search(frame):
                return name
    if comm.startswith("actionable-sqli"):
        return "storage (transaction, driver)"
    if any(SCHEDULER.search(frame) for frame in frames):
        return "scheduler (hops between threads)"
    if comm.startswith("NIO-"):
        return "NIO event loops (sockets, HTTP)"
    return "cooperative pool, unattributed"


def main():
    per_request = float(sys.argv[1])
    counts = {}
    total = 0
    comm, frames = None, []
    def flush():
        nonlocal total
        if comm is not None:
            stage = classify(comm, frames)
            counts[stage] = counts.get(stage, 0) + 1
            total += 1
    for line in open(sys.argv[2], errors="replace"):
        if not line.strip():
            flush()
            comm, frames = None, []
        elif line[0] in " \t" and comm is not None and re.match(r"\s+[0-9a-f]+ ", line):
            frames.append(line.strip().split(" ", 1)[1] if " " in line.strip() else "")
        else:
            comm = line.strip()
    flush()
    order = [name for name, _ in STAGES] + ["scheduler (hops between threads)", "NIO event loops (sockets, HTTP)", "cooperative pool, unattributed"]
    for name in order:
        share = counts.get(name, 0) / total if total else 0
        print(f"{name}\t{share * per_request:.1f}\t{100 * share:.1f}%")


main()
