"""Where chunks of encounters run: in this process, a local process pool, or a Dask cluster.

Every executor yields each chunk's result (rows, a tally, ...) **in chunk order**, whatever
order they finish in, and keeps only a bounded window of chunks in flight, so memory stays
flat for any batch size.
Workers ignore SIGINT, SIGTERM and SIGHUP: the main process takes them (``sim.cli.main``:
SIGTERM and SIGHUP as Ctrl-C), stops submitting, keeps what finished and shuts the workers
down.
"""

from __future__ import annotations

import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sim.scenario.errors import FrayInputError

Chunk = tuple[int, int]
Rows = Any  # what the chunk function returns: rows, a tally, a packed chunk
ChunkFn = Callable[[int, int], Rows]

PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies
WINDOW_PER_WORKER = 4  # chunks in flight per worker: enough to keep every core busy


def _ignore_sigint() -> None:
    # the main process decides: Ctrl-C, SIGTERM and SIGHUP (sent to the whole group by a
    # terminal or a service manager) stop it, and it shuts the workers down
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    _die_with_parent()


def _die_with_parent() -> None:
    """On Linux, end this worker when the main process dies, even by SIGKILL (no orphans)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() == 1:  # the parent died before the call: go now
            os._exit(1)
    except (OSError, AttributeError):  # pragma: no cover - no prctl here
        pass


def run_serial(fn: ChunkFn, chunks: Sequence[Chunk]) -> Iterator[Rows]:
    """Run the chunks one after another in this process."""
    for a, b in chunks:
        yield fn(a, b)


def run_local(fn: Callable[..., Rows], args: tuple, chunks: Sequence[Chunk],
              workers: int) -> Iterator[Rows]:
    """Run ``fn(*args, a, b)`` for each chunk on a process pool of ``workers``."""
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint)
    done = False
    try:
        yield from _windowed(lambda a, b: pool.submit(fn, *args, a, b), chunks,
                             workers * WINDOW_PER_WORKER, lambda f: f.result())
        done = True
    finally:
        if not done:  # stopped: say so at once, then wait for the chunks running now
            print("stopping: waiting for the chunks running now (Ctrl-C again to stop at "
                  "once)", file=sys.stderr, flush=True)
        try:
            pool.shutdown(wait=True, cancel_futures=True)
        except KeyboardInterrupt:  # a second Ctrl-C: stop the workers now, cleanly
            for process in list(getattr(pool, "_processes", {}).values()):
                process.kill()
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def run_dask(fn: Callable[..., Rows], args: tuple, chunks: Sequence[Chunk], scheduler: str,
             workers: int) -> Iterator[Rows]:
    """Run the chunks on a Dask cluster (``tcp://host:port``) or a new ``LocalCluster``.

    ``local`` starts a cluster of ``workers`` single-threaded worker processes here.
    """
    try:  # imported here, not at the top: dask is an optional extra and slow to import
        from dask.distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise FrayInputError("--executor dask", [("", "Dask is not installed; install the "
                                                  "extra with: pip install -e '.[dask]'")]) from exc
    cluster = None
    if scheduler == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout="20s")
            client.wait_for_workers(1, timeout=120)
        except (OSError, TimeoutError) as exc:
            raise FrayInputError("--scheduler", [("", f"cannot use the Dask scheduler at "
                                                 f"{scheduler}: {exc}")]) from None
    try:
        window = max(workers, len(client.scheduler_info().get("workers", {}))) * \
            WINDOW_PER_WORKER
        yield from _windowed(lambda a, b: client.submit(fn, *args, a, b, pure=False),
                             chunks, window, lambda f: f.result())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _windowed(submit: Callable[[int, int], Any], chunks: Sequence[Chunk], window: int,
              result: Callable[[Any], Rows]) -> Iterator[Rows]:
    """Keep up to ``window`` chunks submitted; yield results in chunk order."""
    pending: deque = deque()
    todo = iter(chunks)
    try:
        for a, b in todo:
            pending.append(submit(a, b))
            if len(pending) >= window:
                break
        while pending:
            rows = result(pending.popleft())
            nxt = next(todo, None)
            if nxt is not None:
                pending.append(submit(*nxt))
            yield rows
    finally:  # the consumer stopped early (Ctrl-C, an error): drop what has not started
        for future in pending:
            future.cancel()
