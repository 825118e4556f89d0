"""Worker processes die with the process that started them.

A parent killed outright (SIGKILL: the OOM killer, `kill -9`) runs no handler, so it
cannot stop its workers; orphaned, they would run their restarts to the time limit or
their proof tasks for ever. Each worker calls `die_with_parent(pid)` first thing:

- on Linux, `prctl(PR_SET_PDEATHSIG, SIGKILL)`: the kernel kills the worker the
  moment its parent goes (checked once after arming, for a parent already gone).
  The signal follows the thread that forked the worker, so workers are started by
  the thread that waits for them (every pool here is);
- elsewhere (or where prctl fails), a daemon thread polls `os.getppid()` and ends
  the worker when it changes: an orphan is adopted by init or a subreaper.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # linux/prctl.h
POLL_SECONDS = 0.5  # how often the watchdog looks at the parent


def die_with_parent(parent: int, kernel: bool = True) -> None:
    """Arrange for this process to end when process `parent` (the pid that started it, read before the fork or
    spawn) is gone; ends it now if it already is. `kernel=False` skips prctl (the watchdog alone: tests)."""
    armed = kernel and _parent_death_signal()
    if os.getppid() != parent:  # gone between the fork and here: the signal was armed too late to fire
        os._exit(1)
    if not armed:
        threading.Thread(target=_watch, args=(parent,), name="boggle-lifeline", daemon=True).start()


def _parent_death_signal() -> bool:
    """Ask the kernel for SIGKILL when the parent dies (Linux); whether that was armed."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
        return False


def _watch(parent: int) -> None:
    while True:
        time.sleep(POLL_SECONDS)
        if os.getppid() != parent:
            os._exit(1)  # nobody is left to read this worker's results
