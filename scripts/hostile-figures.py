#!/usr/bin/env python3
"""The figures of issue 25 on loopback, each bounded in time: a `calltrump serve` at its
defaults (a fresh data folder, bots at --bot-delay-ms 0 for the spectators' tables), its
memory (VmRSS of /proc) at rest and at its peak under each attack, and /healthz meanwhile.

    python3 scripts/hostile-figures.py target/release/calltrump
"""
import base64, json, os, socket, struct, subprocess, sys, tempfile, threading, time, urllib.request

BIN = sys.argv[1]
PORT = 18700 + os.getpid() % 200


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def start(extra=()):
    data = tempfile.mkdtemp(prefix="ct-figures-")
    server = subprocess.Popen([BIN, "serve", "--addr", f"127.0.0.1:{PORT}", "--data", data, *extra],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORT}/healthz", timeout=1)
            return server
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def healthz():
    started = time.time()
    try:
        ok = urllib.request.urlopen(f"http://127.0.0.1:{PORT}/healthz", timeout=5).read() == b"ok"
    except OSError:
        ok = False
    return ok, time.time() - started


def create(body, source="127.0.0.1"):
    request = urllib.request.Request(f"http://127.0.0.1:{PORT}/api/tables", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(request, timeout=10).read())


def connect(source="127.0.0.1", rcvbuf=None):
    s = socket.socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((source, 0))
    s.connect(("127.0.0.1", PORT))
    return s


def websocket(table, source="127.0.0.1", rcvbuf=None):
    s = connect(source, rcvbuf)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws/{table} HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def frame(payload, opcode=1):
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x80 | opcode])
    head += bytes([0x80 | n]) if n < 126 else (bytes([0x80 | 126]) + struct.pack(">H", n) if n < 65536 else bytes([0x80 | 127]) + struct.pack(">Q", n))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def watch(server, seconds, label):
    rest = rss_mb(server.pid)
    peak, probes = rest, []
    end = time.time() + seconds
    while time.time() < end:
        peak = max(peak, rss_mb(server.pid))
        probes.append(healthz())
        time.sleep(0.5)
    slowest = max(t for _, t in probes)
    print(f"{label}: rest {rest:.0f} MB, peak {peak:.0f} MB (+{peak - rest:.0f} MB), "
          f"/healthz ok {sum(ok for ok, _ in probes)}/{len(probes)}, slowest {slowest*1000:.0f} ms", flush=True)


def flood():
    server = start()
    table = create({"game": "kaibosh"})["id"]
    rest = rss_mb(server.pid)
    s = websocket(table, rcvbuf=4096)
    stop = time.time() + 20
    def send():
        ping = frame(b'{"type":"ping"}')
        try:
            while time.time() < stop:
                s.sendall(ping * 64)
        except OSError:
            pass
    threading.Thread(target=send, daemon=True).start()
    watch_from(server, rest, 20, "one socket sending pings, never reading, 20 s")
    server.kill()


def watch_from(server, rest, seconds, label):
    peak, probes = rest, []
    end = time.time() + seconds
    while time.time() < end:
        peak = max(peak, rss_mb(server.pid))
        probes.append(healthz())
        time.sleep(0.5)
    slowest = max(t for _, t in probes)
    print(f"{label}: rest {rest:.0f} MB, peak {peak:.0f} MB (+{peak - rest:.0f} MB), "
          f"/healthz ok {sum(ok for ok, _ in probes)}/{len(probes)}, slowest {slowest*1000:.0f} ms", flush=True)


def big_frames():
    server = start()
    table = create({"game": "kaibosh"})["id"]
    rest = rss_mb(server.pid)
    size = 15 * 1024 * 1024
    def one(i):
        try:
            s = websocket(table, source=f"127.0.0.{2 + i % 50}")
            mask = os.urandom(4)
            s.sendall(bytes([0x81, 0x80 | 127]) + struct.pack(">Q", size) + mask)
            chunk = b"x" * 65536
            for _ in range(size // 65536 - 16):
                s.sendall(chunk)
        except OSError:
            pass
    threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(60)]
    for t in threads:
        t.start()
    watch_from(server, rest, 15, "60 sockets sending 15 MiB frames")
    server.kill()


def spectators():
    server = start(["--bot-delay-ms", "0"])
    bots = ["bot:random"] * 4
    tables = [create({"game": "kaibosh", "seats": bots, "options": {"target": 10000}})["id"] for _ in range(20)]
    rest = rss_mb(server.pid)
    held = []
    for i in range(100):
        s = websocket(tables[i % 20], source=f"127.0.0.{2 + i % 50}", rcvbuf=4096)
        s.sendall(frame(b'{"type":"hello"}'))
        held.append(s)
    watch_from(server, rest, 45, "100 spectators never reading at 20 fast bot tables, 45 s")
    server.kill()


def slow_heads():
    server = start()
    rest = rss_mb(server.pid)
    held = []
    for _ in range(200):
        s = connect()
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        held.append(s)
    opened = time.time()
    probes = [healthz() for _ in range(5)]
    slowest = max(t for _, t in probes)
    for s in held:
        s.settimeout(max(0.1, 60 - (time.time() - opened)))
        try:
            while s.recv(4096):
                pass
        except OSError:
            pass
    print(f"200 request heads that never end: /healthz ok {sum(ok for ok, _ in probes)}/5, slowest "
          f"{slowest*1000:.0f} ms; all 200 closed after {time.time() - opened:.1f} s; "
          f"peak memory +{rss_mb(server.pid) - rest:.0f} MB", flush=True)
    server.kill()


for scenario in sys.argv[2:] or ["slow_heads", "flood", "big_frames", "spectators"]:
    globals()[scenario]()
