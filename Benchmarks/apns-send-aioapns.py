#!/usr/bin/env python3
"""aioapns (PyPI) sending COUNT notifications to a stand-in APNs with CONCURRENCY in flight over
CONNECTIONS connections; prints one JSON line as Benchmarks/Sources/apns-send does.

Usage: apns-send-aioapns.py URL CA_PEM KEY_P8 KEY_ID TEAM CONNECTIONS COUNT CONCURRENCY
aioapns talks to Apple's host and port only, so both are pointed at the stand-in here, and its
TLS context trusts the stand-in's certificate and offers h2 (as aioapns's own does). The stand-in
(Hummingbird over swift-nio-http2) ends a 200 answer with an empty DATA frame where Apple ends it
on its HEADERS frame; aioapns parses every DATA frame as JSON, so an empty one is skipped here
(nothing else of aioapns is changed)."""
import asyncio
import json
import ssl
import sys
import time
import uuid
from urllib.parse import urlparse

from aioapns import APNs, NotificationRequest
from aioapns import connection


original_on_data_received = connection.APNsBaseClientProtocol.on_data_received


def on_data_received(self, raw_data, stream_id):
    if raw_data:
        original_on_data_received(self, raw_data, stream_id)


connection.APNsBaseClientProtocol.on_data_received = on_data_received


async def main():
    url, ca, key_file, key_id, team, connections, count, concurrency = sys.argv[1:9]
    connections, count, concurrency = int(connections), int(count), int(concurrency)
    parsed = urlparse(url)
    connection.APNsProductionClientProtocol.APNS_SERVER = parsed.hostname
    connection.APNsProductionClientProtocol.APNS_PORT = parsed.port
    context = ssl.create_default_context(cafile=ca)
    context.set_alpn_protocols(["h2"])
    client = APNs(key=open(key_file).read(), key_id=key_id, team_id=team, topic="com.example.app",
                  max_connections=connections, ssl_context=context)
    devices = ["%064x" % (0xA0000000 + index) for index in range(count)]
    message = {"aps": {"alert": {"title": "Dinner?", "body": "Sam invited you"}, "category": "invite"}, "inviteId": "42"}
    latencies, failures, next_index = [], 0, 0

    async def worker():
        nonlocal failures, next_index
        while next_index < count:
            index = next_index
            next_index += 1
            start = time.perf_counter()
            result = await client.send_notification(
                NotificationRequest(device_token=devices[index], message=message, notification_id=str(uuid.uuid4())))
            latencies.append((time.perf_counter() - start) * 1000)
            if not result.is_successful:
                failures += 1

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    seconds = time.perf_counter() - started
    latencies.sort()
    percentile = lambda p: latencies[min(len(latencies) - 1, int(len(latencies) * p))] if latencies else 0
    print(json.dumps({"client": "aioapns", "connections": connections, "sent": count - failures, "failed": failures,
                      "seconds": round(seconds, 3), "rate": round(count / seconds), "p50_ms": round(percentile(0.5), 2),
                      "p99_ms": round(percentile(0.99), 2)}))


asyncio.run(main())
