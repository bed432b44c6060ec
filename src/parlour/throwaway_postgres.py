"""A throw-away PostgreSQL server in a temporary directory, on a free loopback port, made with the
server binaries of Debian's ``postgresql`` package (``initdb``/``pg_ctl`` under
``/usr/lib/postgresql/*/bin``, run as the ``postgres`` user when we are root): for the tests and the
benchmarks that need a real PostgreSQL (several ``parlour serve`` processes on one database).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SETUP = ("PostgreSQL server binaries (initdb, pg_ctl) not found under /usr/lib/postgresql/*/bin: "
         "run scripts/test-setup.sh as root (it installs Debian's postgresql)")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def postgres_bin() -> Path:
    """The newest ``/usr/lib/postgresql/*/bin`` with initdb and pg_ctl (:class:`FileNotFoundError` if none)."""
    found = []
    for initdb in glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        folder = Path(initdb).parent
        if (folder / "pg_ctl").exists():
            version = folder.parent.name
            found.append((int(version) if version.isdigit() else 0, folder))
    if not found:
        raise FileNotFoundError(SETUP)
    return max(found)[1]


class PostgresServer:
    """A throw-away PostgreSQL server (:meth:`start`, :meth:`create_database`, :meth:`stop`)."""

    def __init__(self) -> None:
        self.bin = postgres_bin()
        self.root = Path(tempfile.mkdtemp(prefix="parlour-pg-"))
        self.data = self.root / "data"
        self.socket_dir = self.root / "run"
        self.log = self.root / "postgres.log"
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        self.names = itertools.count(1)

    def run(self, *args: str) -> None:
        """Run a PostgreSQL tool (as the ``postgres`` user when we are root)."""
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        done = subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=120, cwd=self.root)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}\n{log}")

    def start(self) -> None:
        self.socket_dir.mkdir()
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
            shutil.chown(self.socket_dir, "postgres", "postgres")
        self.run(
            str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
            "--encoding=UTF8", "--no-locale", "--no-sync",
        )
        options = (
            f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c full_page_writes=off -c max_connections=200"
        )
        self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options, "-w",
                 "-t", "60", "start")

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def create_database(self) -> str:
        """A fresh database; its SQLAlchemy URL."""
        name = f"parlour_{os.getpid()}_{next(self.names)}"
        self.run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"
