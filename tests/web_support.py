"""What the web tests share: a store with en-enable2k, en, nl and uk (Ukrainian, non-Latin), and a real server."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from conftest import require_file

from boggle_i18n.lexicon.build import build_lexicon

REPO = Path(__file__).resolve().parent.parent


def make_web_store(root: Path, built_store: Path) -> Path:
    """en-enable2k, en and nl copied from the session's built store; uk built from Debian's wukrainian, th
    (3 s) from hunspell-th (a script whose vowel signs and tone marks are faces of their own)."""
    root.mkdir(parents=True, exist_ok=True)
    for name in ("en-enable2k", "en", "nl"):
        for suffix in (".marisa", ".json"):
            shutil.copy(built_store / f"{name}{suffix}", root / f"{name}{suffix}")
    source = require_file(Path("/usr/share/dict/ukrainian"), "Debian's wukrainian (.ci/debian-lists.txt)")
    build_lexicon("uk", source=source, store=root, download=False)
    require_file(Path("/usr/share/hunspell/th_TH.dic"), "Debian's hunspell-th (.ci/debian-lists.txt)")
    build_lexicon("th", store=root, download=False)
    return root


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`boggle-i18n serve` in a subprocess, as a user starts it; stopped with Ctrl-C (SIGINT)."""

    def __init__(self, store: Path, results: Path, max_files: int | None = None) -> None:
        """`max_files`: the server's file descriptor limit (soft and hard), as a user's `ulimit -n` sets it."""
        self.port = free_port()
        self.store = store
        env = {**os.environ, "BOGGLE_I18N_HOME": str(store), "BOGGLE_I18N_OFFLINE": "1"}
        args = [sys.executable, "-m", "boggle_i18n", "serve", "--port", str(self.port), "--results", str(results)]

        def limit_files() -> None:
            import resource

            if max_files is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (max_files, max_files))

        self.proc = subprocess.Popen(args, env=env, stderr=subprocess.PIPE, text=True, preexec_fn=limit_files)
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.url + "/api/languages", timeout=5):
                    break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    if self.proc.poll() is None:
                        self.proc.kill()  # reading the stderr of a live server would wait for ever
                    _, said = self.proc.communicate()
                    raise RuntimeError(f"server did not start: {said}") from None
                time.sleep(0.2)

    def stop(self) -> tuple[int, str]:
        """Ctrl-C; the exit code and what the server said on stderr."""
        import signal

        self.proc.send_signal(signal.SIGINT)
        try:
            _, err = self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        return self.proc.returncode, err


AXE_VERSION = "4.14.1"
AXE_DIR = REPO / ".npm"  # git-ignored; .ci/run installs it too


def axe_script() -> str:
    """axe-core's axe.min.js, installed from the npm registry into .npm/ on first use (`npm install`).

    Under CI=true a missing npm or a failed install fails the test; elsewhere it skips it.
    """
    import pytest

    script = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    installed = AXE_DIR / "node_modules" / "axe-core" / "package.json"
    if not script.is_file() or f'"version": "{AXE_VERSION}"' not in installed.read_text(encoding="utf-8"):
        npm = shutil.which("npm")
        problem = None
        if npm is None:
            problem = "npm is not installed (apt-get install npm): axe-core comes from the npm registry"
        else:
            AXE_DIR.mkdir(exist_ok=True)
            proc = subprocess.run(
                [
                    npm,
                    "install",
                    "--prefix",
                    str(AXE_DIR),
                    "--no-audit",
                    "--no-fund",
                    "--silent",
                    f"axe-core@{AXE_VERSION}",
                ],
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
            if proc.returncode != 0 or not script.is_file():
                problem = f"npm install axe-core@{AXE_VERSION} failed: {proc.stderr.strip()[-300:]}"
        if problem:
            if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
                pytest.fail(problem)
            pytest.skip(problem)
    return script.read_text(encoding="utf-8")
