#!/usr/bin/env python3
"""Footprint of auth-service, message-service and push-service, for comparing two builds (issue 14,
docs/benchmarks.md).

Against running services (ports in AUTH_URL, MESSAGE_URL and PUSH_URL, platform key in PLATFORM_KEY, pids in
AUTH_PID, MESSAGE_PID and PUSH_PID) it prints: each service's VmRSS after start, after 1,000 small authenticated
reads each (auth: GET /user/device/list, message: GET /group/user_joined, push: GET /push/enable as the admin and
GET /user/token/list as the user), and the mean time of one token operation (POST /token/user with a known device),
one group create (admin token, no members), one push switch (POST /push/enable, alternating) and one tag add
(POST /user/push/tag, one of 100 tags) over loops of 2,000, one keep-alive connection per service, one request at
a time. Run by deploy/bench/orm-footprint.sh.
"""
import http.client
import json
import os
import time
import urllib.parse

AUTH = urllib.parse.urlparse(os.environ["AUTH_URL"])
MESSAGE = urllib.parse.urlparse(os.environ["MESSAGE_URL"])
PUSH = urllib.parse.urlparse(os.environ["PUSH_URL"])
LOOP = int(os.environ.get("LOOP", "2000"))
READS = int(os.environ.get("READS", "1000"))


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS for " + pid)


class Client:
    def __init__(self, url):
        self.connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)

    def call(self, method, path, headers, body=None):
        data = None if body is None else json.dumps(body)
        all_headers = dict(headers)
        if data is not None:
            all_headers["Content-Type"] = "application/json"
        self.connection.request(method, path, body=data, headers=all_headers)
        answer = json.loads(self.connection.getresponse().read())
        if answer.get("code") != 200:
            raise RuntimeError(f"{method} {path}: {answer}")
        return answer.get("data")


def timed(loop, action):
    start = time.perf_counter()
    for _ in range(loop):
        action()
    return (time.perf_counter() - start) * 1000 / loop


def main():
    auth, message, push = Client(AUTH), Client(MESSAGE), Client(PUSH)
    services = {"auth": "AUTH_PID", "message": "MESSAGE_PID", "push": "PUSH_PID"}
    rss = {f"{name} start": rss_kib(os.environ[pid]) for name, pid in services.items()}
    app = auth.call("POST", "/app/create", {"platform-key": os.environ["PLATFORM_KEY"]}, {"name": "footprint"})
    as_app = {"app_id": app["app_id"]}
    as_admin = dict(as_app, **{"access-token": app["admin_token"]})
    name, password = f"footprint{int(time.time())}", "footprint-password-1"
    auth.call("POST", "/user/register/v2", as_app, {"username": name, "password": password})
    login = {"name": name, "password": password, "device_guid": "footprint-device"}
    as_user = dict(as_app, **{"access-token": auth.call("POST", "/token/user", as_app, login)["token"]})

    for _ in range(READS):
        auth.call("GET", "/user/device/list", as_user)
        message.call("GET", "/group/user_joined", as_user)
        push.call("GET", "/push/enable", as_admin)
        push.call("GET", "/user/token/list", as_user)
    rss.update({f"{name} after reads": rss_kib(os.environ[pid]) for name, pid in services.items()})

    device_list_ms = timed(LOOP, lambda: auth.call("GET", "/user/device/list", as_user))
    user_joined_ms = timed(LOOP, lambda: message.call("GET", "/group/user_joined", as_user))
    token_ms = timed(LOOP, lambda: auth.call("POST", "/token/user", as_app, login))
    group_ms = timed(LOOP, lambda: message.call("POST", "/group/create", as_admin, {"name": "footprint"}))
    switches = iter(range(LOOP))
    switch_ms = timed(LOOP, lambda: push.call("POST", f"/push/enable?value={next(switches) % 2 == 0}".lower(),
                                              as_admin))
    tags = iter(range(LOOP))
    tag_ms = timed(LOOP, lambda: push.call("POST", "/user/push/tag", as_user, {"tags": [f"t{next(tags) % 100}"]}))
    rss.update({f"{name} after loops": rss_kib(os.environ[pid]) for name, pid in services.items()})
    for key, value in rss.items():
        print(f"rss {key}: {value / 1024:.1f} MiB")
    print(f"device list read: {device_list_ms:.2f} ms mean over {LOOP}")
    print(f"groups joined read: {user_joined_ms:.2f} ms mean over {LOOP}")
    print(f"token operation: {token_ms:.2f} ms mean over {LOOP}")
    print(f"group create: {group_ms:.2f} ms mean over {LOOP}")
    print(f"push switch: {switch_ms:.2f} ms mean over {LOOP}")
    print(f"tag add: {tag_ms:.2f} ms mean over {LOOP}")


if __name__ == "__main__":
    main()
