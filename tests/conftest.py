"""Settings for the whole suite."""

from __future__ import annotations

import os

import pytest

#: test processes per core: most tests spend half their time waiting (on a broker, on
#: another process, on tmux), so two a core keep the cores busy; on 2 cores the suite
#: took 741 s with two processes, 526 s with three and 496 s with four
PER_CORE = 2


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: :data:`PER_CORE` processes a core (``--maxprocesses`` caps them), unless
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` names a number."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return PER_CORE * (cores or 1)
