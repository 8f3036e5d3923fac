"""Render deploy/*.conf.in into a run directory: nginx.conf and supervisord.conf for N workers.

Used by deploy/serve.sh (locally and in the Docker image); standard library only.

    python deploy/render_configs.py --run-dir DIR --workers N --port P [--address A]
        [--first-worker-port Q] [--nginx PATH] [--python PATH] [-- extra streamlit args]

Workers are named w1 … wN and listen on 127.0.0.1:Q … Q+N-1 (Q defaults to P+1); only nginx
listens on A:P. Prints nothing; exits with status 2 and a message on bad arguments.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
STORE = "ATTENTION_CLASS_STORE"  # classroom.store.STORE_VARIABLE (deploy/ imports no app code)
FIELD = re.compile(r"\{\{([A-Z_]+)\}\}")


def fill(template: str, values: dict[str, str]) -> str:
    """Replace every {{NAME}}; a field without a value is an error, not an empty string."""
    missing = sorted(set(FIELD.findall(template)) - set(values))
    if missing:
        raise KeyError(f"no value for {', '.join(missing)}")
    return FIELD.sub(lambda m: values[m.group(1)], template)


def supervisor_value(text: str) -> str:
    """supervisord expands %(name)s in its values: a literal % is written %%."""
    return text.replace("%", "%%")


def worker_names(workers: int) -> list[str]:
    return [f"w{i}" for i in range(1, workers + 1)]


def nginx_conf(run_dir: Path, listen: str, ports: list[int]) -> str:
    names = worker_names(len(ports))
    server = "        server 127.0.0.1:{} max_fails=1 fail_timeout=5s{};"
    newcomers = "\n".join(server.format(port, "") for port in ports)
    groups = []
    for name, port in zip(names, ports, strict=True):
        lines = [server.format(port, "")]
        lines += [server.format(other, " backup") for other in ports if other != port]
        groups.append(f"    upstream {name} {{\n" + "\n".join(lines) + "\n    }")
    routes = "\n".join(f"        {name} {name};" for name in names)
    # $upstream_addr lists every address tried ("a, b"); the last one answered.
    served_by = "\n".join(
        f'        "~(^|[ ,])127\\.0\\.0\\.1:{port}$" {name};'
        for name, port in zip(names, ports, strict=True)
    )
    template = (HERE / "nginx.conf.in").read_text()
    return fill(
        template,
        {
            "RUN_DIR": str(run_dir),
            "LISTEN": listen,
            "LISTEN_ADDRESS": listen.rsplit(":", 1)[0].strip("[]"),
            "NEWCOMER_SERVERS": newcomers,
            "WORKER_UPSTREAMS": "\n".join(groups),
            "COOKIE_ROUTES": routes,
            "SERVED_BY": served_by,
        },
    )


def redis_program(run_dir: Path, redis_server: str, port: int, launcher: str) -> str:
    """supervisord's program for the class store: Redis on the loopback address only.

    Persistence is what a class needs: an append-only file, so that a restarted Redis
    still knows its classes (each key expires after 4 idle hours); no snapshots; memory
    bounded, the keys nearest their expiry evicted first.
    """
    command = [
        redis_server,
        "--bind 127.0.0.1",
        f"--port {port}",
        "--protected-mode yes",
        f"--dir {run_dir / 'redis'}",
        '--save ""',
        "--appendonly yes",
        "--appendfsync everysec",
        "--maxmemory 256mb",
        "--maxmemory-policy volatile-ttl",
    ]
    return fill(
        (HERE / "redis.conf.in").read_text(),
        {
            "COMMAND": supervisor_value(launcher + " ".join(command)),
            "RUN_DIR": supervisor_value(str(run_dir)),
        },
    )


def supervisord_conf(
    run_dir: Path,
    ports: list[int],
    nginx: str,
    python: str,
    extra: list[str],
    setpriv: str | None = None,
    redis_server: str | None = None,
    redis_port: int | None = None,
) -> str:
    """supervisord.conf: nginx and one program per worker.

    With ``setpriv``, each program is started through ``setpriv --pdeathsig TERM`` so that
    it is stopped by the kernel if supervisord itself is killed outright.
    """
    worker = (HERE / "worker.conf.in").read_text()
    launcher = f"{shlex.quote(setpriv)} --pdeathsig TERM " if setpriv else ""
    tail = "".join(" " + shlex.quote(arg) for arg in extra)
    run_redis = bool(redis_server and redis_port)
    # Without a Redis of its own, the workers use the store the environment names (or memory).
    store = f"redis://127.0.0.1:{redis_port}/0" if run_redis else os.environ.get(STORE, "")
    programs = "".join(
        fill(
            worker,
            {
                "NAME": name,
                "PORT": str(port),
                "PYTHON": supervisor_value(launcher + shlex.quote(python)),
                "EXTRA": supervisor_value(tail),
                "REPO": supervisor_value(str(REPO)),
                "RUN_DIR": supervisor_value(str(run_dir)),
                "STORE": supervisor_value(store),
            },
        )
        for name, port in zip(worker_names(len(ports)), ports, strict=True)
    )
    if run_redis:
        programs += redis_program(run_dir, shlex.quote(redis_server), redis_port, launcher)
    template = (HERE / "supervisord.conf.in").read_text()
    return fill(
        template,
        {
            "RUN_DIR": supervisor_value(str(run_dir)),
            "NGINX": supervisor_value(launcher + shlex.quote(nginx)),
            "PROGRAMS": programs,
        },
    )


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--run-dir", type=Path, required=True)
    parser.add_argument("--workers", type=int, required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--address", default="127.0.0.1")
    parser.add_argument("--first-worker-port", type=int)
    parser.add_argument("--nginx", default="nginx")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--setpriv", help="prefix every program with `setpriv --pdeathsig TERM`")
    parser.add_argument("--redis-server", help="redis-server to run as the class store")
    parser.add_argument("--redis-port", type=int, help="its port on 127.0.0.1")
    parser.add_argument("extra", nargs="*", help="more arguments for every `streamlit run`")
    args = parser.parse_args(argv)
    if not 1 <= args.workers <= 64:
        parser.error(f"--workers must be between 1 and 64, not {args.workers}")
    first = args.first_worker_port or args.port + 1
    args.ports = list(range(first, first + args.workers))
    if args.port in args.ports or not all(0 < p < 65536 for p in [args.port, *args.ports]):
        parser.error(f"ports must be distinct and below 65536: {args.port} and {args.ports}")
    if any(c in str(args.run_dir) for c in " \t\n;{}\"'"):
        parser.error(f"--run-dir must not contain spaces, quotes, ';' or braces: {args.run_dir}")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse(sys.argv[1:] if argv is None else argv)
    run_dir = args.run_dir.resolve()
    for sub in ("nginx", "logs", "redis"):
        (run_dir / sub).mkdir(parents=True, exist_ok=True)
    host = f"[{args.address}]" if ":" in args.address else args.address
    listen = f"{host}:{args.port}"
    (run_dir / "nginx" / "nginx.conf").write_text(nginx_conf(run_dir, listen, args.ports))
    (run_dir / "supervisord.conf").write_text(
        supervisord_conf(
            run_dir,
            args.ports,
            args.nginx,
            args.python,
            args.extra,
            args.setpriv,
            args.redis_server,
            args.redis_port,
        )
    )
    (run_dir / "workers").write_text(
        "".join(f"{n} {p}\n" for n, p in zip(worker_names(args.workers), args.ports, strict=True))
    )


if __name__ == "__main__":
    main()
