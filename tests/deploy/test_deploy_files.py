"""The files in deploy/: rendered configs that nginx accepts, and a Dockerfile and compose file
that agree with serve.sh (they cannot be built here: no Docker engine)."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from deploy.render_configs import main as render

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    render(["--run-dir", str(tmp_path), "--workers", "3", "--port", "18000"])
    return tmp_path


def test_nginx_conf_keeps_learners_on_one_worker_by_a_cookie(run_dir):
    conf = (run_dir / "nginx" / "nginx.conf").read_text()
    assert not re.search(r"\{\{[A-Z_]+\}\}", conf)
    assert "listen 127.0.0.1:18000;" in conf
    for name, port in (("w1", 18001), ("w2", 18002), ("w3", 18003)):
        group = re.search(rf"upstream {name} \{{(.*?)\}}", conf, re.S).group(1)
        primary, *backups = [line.strip() for line in group.strip().splitlines()]
        assert primary.startswith(f"server 127.0.0.1:{port} ") and "backup" not in primary
        assert len(backups) == 2 and all(line.endswith("backup;") for line in backups)
        assert f"        {name} {name};" in conf  # cookie value -> group
    assert "map $cookie_attention_worker $worker_group" in conf
    assert not re.search(r"^\s*(ip_hash|hash \$remote_addr)", conf, re.M)  # one school address
    for line in (
        "proxy_http_version 1.1;",
        "proxy_set_header Upgrade $http_upgrade;",
        "proxy_set_header Connection $connection_upgrade;",
        "proxy_read_timeout 1h;",
        "add_header Set-Cookie $worker_cookie always;",
        'proxy_set_header X-Attention-Listen "127.0.0.1";',  # the join link: not the network's
    ):
        assert line in conf


@pytest.mark.skipif(not Path(NGINX).exists(), reason="nginx not installed")
def test_nginx_accepts_the_rendered_conf(run_dir):
    conf = f"{run_dir}/nginx/nginx.conf"
    done = subprocess.run(
        [NGINX, "-t", "-p", f"{run_dir}/nginx/", "-c", conf, "-e", "stderr"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_supervisord_restarts_every_worker_from_the_repository(run_dir):
    conf = configparser.RawConfigParser()
    conf.read(run_dir / "supervisord.conf")
    assert conf.get("supervisord", "nodaemon") == "true"
    assert conf.get("program:nginx", "autorestart") == "true"
    for index in (1, 2, 3):
        program = f"program:w{index}"
        assert conf.get(program, "autorestart") == "true"
        assert conf.get(program, "directory") == str(ROOT)  # .streamlit/config.toml applies
        command = conf.get(program, "command")
        assert "-m streamlit run streamlit_app.py" in command
        assert f"--server.port {18000 + index} --server.address 127.0.0.1" in command
        assert conf.get(program, "stopasgroup") == "true"


def test_serve_sh_parses_its_arguments():
    assert subprocess.run(["bash", "-n", str(DEPLOY / "serve.sh")], check=False).returncode == 0
    helped = subprocess.run(
        ["bash", str(DEPLOY / "serve.sh"), "--help"], capture_output=True, text=True, check=False
    )
    assert helped.returncode == 0 and "--workers N" in helped.stdout
    wrong = subprocess.run(
        ["bash", str(DEPLOY / "serve.sh"), "--workers", "two"], capture_output=True, check=False
    )
    assert wrong.returncode == 2


def test_compose_file_and_dockerfile_agree_with_serve_sh():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    service = compose["services"]["dashboard"]
    context = (DEPLOY / service["build"]["context"]).resolve()
    assert context == ROOT
    assert (context / service["build"]["dockerfile"]) == DEPLOY / "Dockerfile"
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    port = re.search(r"PORT=(\d+)", dockerfile).group(1)
    assert port == "8080"
    assert all(mapping.endswith(f":{port}") for mapping in service["ports"])
    kind, test = service["healthcheck"]["test"]
    assert kind == "CMD-SHELL" and f"deploy/healthcheck.py --port {port}" in test
    assert "HEALTHCHECK" in dockerfile and "deploy/healthcheck.py" in dockerfile
    assert "deploy/serve.sh" in dockerfile and "--address 0.0.0.0" in dockerfile
    assert "apt-get install" in dockerfile and "nginx supervisor" in dockerfile
    assert service["init"] is True
    ignored = (DEPLOY / "Dockerfile.dockerignore").read_text().split()
    for needed in ("deploy", ".streamlit", "requirements.txt", "attention_core", "ui", "pages"):
        assert needed not in ignored
