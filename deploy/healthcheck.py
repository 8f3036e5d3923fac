"""Health of the replicas, through nginx: is every worker answering /_stcore/health itself?

    python deploy/healthcheck.py --port P (--workers N | --run-dir DIR) [--host H]
        [--wait SECONDS] [--while-alive PID]

For each worker wK it asks nginx for /_stcore/health with the cookie attention_worker=wK and
expects 200 from wK itself (nginx's X-Worker header); a worker that is down is answered by a
backup and counts as unhealthy. Exit status 0 when every worker is healthy, 1 otherwise.
With --wait it retries until then (at most SECONDS; stops early when process PID is gone).
Used by deploy/serve.sh at start and by the Docker image's HEALTHCHECK. Standard library only.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path


def worker_health(host: str, port: int, name: str, timeout: float = 5.0) -> str:
    """'ok', or what went wrong, for one worker reached through nginx by its cookie."""
    request = urllib.request.Request(
        f"http://{host}:{port}/_stcore/health", headers={"Cookie": f"attention_worker={name}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            served_by = response.headers.get("X-Worker", "")
            if served_by != name:
                return f"down (answered by {served_by or 'nobody'})"
            return "ok"
    except urllib.error.HTTPError as error:  # 503 while a worker starts, 502 with none up
        return f"HTTP {error.code} ({error.headers.get('X-Worker') or 'nginx'})"
    except OSError as error:
        return f"unreachable ({getattr(error, 'reason', error)})"


def alive(pid: int | None) -> bool:
    if pid is None:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True, help="the port nginx listens on")
    parser.add_argument("--host", default="127.0.0.1", help="where nginx is reached")
    parser.add_argument("--workers", type=int, help="number of workers (w1 … wN)")
    parser.add_argument("--run-dir", type=Path, help="serve.sh's run directory (lists workers)")
    parser.add_argument("--wait", type=float, default=0.0)
    parser.add_argument("--while-alive", type=int)
    args = parser.parse_args(argv)
    if args.run_dir is not None:
        names = [line.split()[0] for line in (args.run_dir / "workers").read_text().splitlines()]
    elif args.workers:
        names = [f"w{i}" for i in range(1, args.workers + 1)]
    else:
        parser.error("give --workers N or --run-dir DIR")
    host = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    host = f"[{host}]" if ":" in host else host
    deadline = time.monotonic() + args.wait
    while True:
        status = {name: worker_health(host, args.port, name) for name in names}
        if all(s == "ok" for s in status.values()):
            print(f"healthy: {', '.join(names)}")
            return 0
        if time.monotonic() >= deadline or not alive(args.while_alive):
            for name, state in status.items():
                print(f"{name}: {state}", file=sys.stderr)
            return 1
        time.sleep(0.5)


if __name__ == "__main__":
    sys.exit(main())
