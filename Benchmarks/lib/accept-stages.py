#!/usr/bin/env python3
"""Where an accept's CPU goes, by stage, from `perf script -F comm,ip,sym | swift demangle --simplified`.

Each sample is given to a stage by its stack: the outermost frame (root first) that names a stage
of the accept path wins, so a JSON decode inside the token's verification counts as the token, not
as reading the body. The database's writes, flushes and locks count as storage whatever thread
made them. Other samples are split: the scheduler (a thread put to sleep or woken, seen in the
frames nearest the sample: the hops between the cooperative pool, NIO's event loops and the
database's writer), NIO's event loops (sockets, HTTP parsing and writing), and the rest of the
cooperative pool (async resumptions, whose stacks start at the resumed part of a function and so
often name no stage: Hummingbird's request loop, the accept's own code between its awaits).

Usage: accept-stages.py CPU_US_PER_REQUEST SCRIPT.txt   → one "stage µs share" line per stage
"""
import re
import sys

STAGES = [
    ("token", r"ActionTokens\.verify|JWTKeyCollection|JWTSigner|JWTParser|HMACSigner|AppTokens"),
    ("payload binding (pld)", r"checkPayload|PayloadDigest|canonicalJSON|sentPayload"),
    ("catalog check", r"Catalog\.validate|ActionResponse\.init"),
    ("body read and decode", r"JSONRequestReader|ActionRequestBody|CeilingBody|JSONDecoder"),
    ("storage (transaction, driver)", r"GRDB|sqlite3|GroupCommitter|SQLiteActionStore|Postgres|PSQL|StorageGate|\.accept\(_:\) in conformance"),
    ("tracing, logs, metrics", r"withSpan|Tracing|Instrumentation|SpanAttribute|LegacyTracer|Logger|LogHandler|Metrics|Counter|Prometheus|TraceParent"),
    ("response and router", r"ActionAnswer|Problem|RouterResponder|RouterTrie|Middleware|Router\."),
]
# A thread put to sleep or woken — what a hop between threads costs — is seen in the frames
# nearest the sample (every resumed job has swift_job_run at its root, so roots say nothing).
SCHEDULER = re.compile(r"futex|schedule|finish_task_switch|try_to_wake_up|sem_post|sem_wait|_dispatch_semaphore|"
                       r"_dispatch_root_queue_poke|epoll_wait|pthread_cond|NSCondition|_schedule0|eventfd")
# The database's own writes and flushes (SQLite's WAL and fsync), whatever thread made them.
STORAGE_IO = re.compile(r"fdatasync|fsync|pwrite|pread|fcntl|DispatchQueue\.sync")
compiled = [(name, re.compile(pattern)) for name, pattern in STAGES]


def classify(comm, frames):
    for frame in reversed(frames):  # root first
        for name, pattern in compiled:
            if pattern.search(frame):
                return name
    near = frames[:12]  # leaf first
    if any(STORAGE_IO.search(frame) for frame in frames):
        return "storage (transaction, driver)"
    if any(SCHEDULER.search(frame) for frame in near):
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
