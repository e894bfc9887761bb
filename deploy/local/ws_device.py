#!/usr/bin/env python3
"""A device on the live connection for the smoke test (standard library only): connects to BASE_URL's /ws,
authenticates, prints "connected", waits for one push `notification` frame (or, with WAIT_FOR=message, one chat
`message` frame), acknowledges it (`notification_ack` / `ack`) and prints the frame; with WAIT_FOR=close, waits
for the server to close the connection and prints "closed CODE REASON at EPOCH_SECONDS".
Usage: ws_device.py BASE_URL APP_ID TOKEN DEVICE_SN [TIMEOUT_S [WAIT_FOR]]"""
import base64, json, os, socket, struct, sys, time


class Closed(EOFError):
    """The server's close frame: its code and reason."""

    def __init__(self, payload):
        self.code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None
        self.reason = payload[2:].decode(errors="replace")
        super().__init__("closed by the server: %s %s" % (self.code, self.reason))
from urllib.parse import urlparse


def send_text(sock, text):
    payload = text.encode()
    mask = os.urandom(4)
    header = bytes([0x81])
    n = len(payload)
    if n < 126:
        header += bytes([0x80 | n])
    elif n < 65536:
        header += bytes([0x80 | 126]) + struct.pack(">H", n)
    else:
        header += bytes([0x80 | 127]) + struct.pack(">Q", n)
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def read_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError("connection closed")
        data += chunk
    return data


def read_frame(sock):
    first, second = read_exact(sock, 2)
    n = second & 0x7F
    if n == 126:
        n = struct.unpack(">H", read_exact(sock, 2))[0]
    elif n == 127:
        n = struct.unpack(">Q", read_exact(sock, 8))[0]
    payload = read_exact(sock, n)
    if first & 0x0F == 0x8:
        raise Closed(payload)
    return first & 0x0F, payload


def main():
    base, app_id, token, device_sn = sys.argv[1:5]
    deadline = time.time() + float(sys.argv[5] if len(sys.argv) > 5 else 30)
    wait_for = sys.argv[6] if len(sys.argv) > 6 else "notification"
    url = urlparse(base)
    sock = socket.create_connection((url.hostname, url.port or 80), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(("GET /ws HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (url.netloc, key)).encode())
    response = b""
    while b"\r\n\r\n" not in response:
        response += sock.recv(1)
    if b" 101 " not in response.split(b"\r\n")[0]:
        sys.exit("no upgrade: %r" % response)
    send_text(sock, json.dumps({"type": "auth", "app_id": app_id, "token": token, "device_sn": int(device_sn)}))
    while time.time() < deadline:
        sock.settimeout(max(0.1, deadline - time.time()))
        try:
            opcode, payload = read_frame(sock)
        except Closed as closed:
            if wait_for != "close":
                raise
            print("closed %s %s at %.3f" % (closed.code, closed.reason, time.time()), flush=True)
            return
        if opcode != 0x1:
            continue
        frame = json.loads(payload)
        if frame.get("type") == "auth":
            if frame.get("code") != 200:
                sys.exit("auth refused: %r" % frame)
            print("connected", flush=True)
        elif frame.get("type") == "message" and wait_for == "message":
            send_text(sock, json.dumps({"type": "ack", "conversation_id": frame["conversation_id"],
                                        "msg_id": frame["message"]["msg_id"]}))
            opcode, payload = read_frame(sock)
            print(json.dumps(frame), flush=True)
            print(payload.decode(), flush=True)
            return
        elif frame.get("type") == "notification" and wait_for == "notification":
            send_text(sock, json.dumps({"type": "notification_ack", "task_id": frame["task_id"]}))
            opcode, payload = read_frame(sock)
            print(json.dumps(frame), flush=True)
            print(payload.decode(), flush=True)
            return
    sys.exit("no %s within the timeout" % wait_for)


if __name__ == "__main__":
    main()
