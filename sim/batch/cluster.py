"""Chunks on a Dask cluster: a scheduler at ``tcp://host:port``, or a ``LocalCluster`` here.

Imported only for ``--executor dask`` (Dask is an optional extra and slow to import).

- A local cluster's worker processes end with the main process: Dask's own watch ends each
  one when the pipe to its parent closes (a SIGKILLed parent included), and ``close``
  closes the cluster on every other path. They ignore Ctrl-C, SIGTERM and SIGHUP
  (``dask_setup``, their preload), as the pool's workers do: the main process decides, and
  the chunks they are running finish and are kept.
- A scheduler that cannot be reached is bad input (``FrayInputError``, exit 2); one lost in
  the middle of a batch raises ``SchedulerLost`` (one line, exit 1, the ``.part`` file left
  for ``--resume``).
- Dask's own log lines are silenced while a batch runs (``FRAY_DEBUG=1`` keeps them).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import signal
import socket
import threading
from collections.abc import Callable, Sequence
from typing import Any

from dask.distributed import Client, LocalCluster
from distributed.client import ClosedClientError
from distributed.scheduler import KilledWorker

from sim.batch.executors import STOPPING, WINDOW_PER_WORKER, Chunk, Ordered, Rows
from sim.batch.stops import stops_held
from sim.scenario.errors import FrayInputError

CONNECT_TIMEOUT = 20  # seconds to reach a --scheduler (and for it to answer)
WORKERS_TIMEOUT = 120  # seconds for a reached scheduler to have a worker
LOST = (concurrent.futures.CancelledError, asyncio.CancelledError, OSError, KilledWorker,
        ClosedClientError)  # what a lost scheduler (or a dead worker) raises


class SchedulerLost(ConnectionError):
    """The Dask cluster went away (or dropped the work) in the middle of a batch.

    An ``OSError``: ``sim.cli.main`` says it in one line, notes that what finished is kept,
    and exits 1; the ``.part`` file and its checkpoint are left for ``--resume``.
    """


def dask_setup(worker: Any) -> None:
    """Preload of a local cluster's workers: leave the signals to the main process."""
    del worker
    for signum in STOPPING:
        signal.signal(signum, signal.SIG_IGN)


def quiet_dask() -> Callable[[], None]:
    """Silence Dask's own log lines (fray says what went wrong); return the undo."""
    if os.environ.get("FRAY_DEBUG"):
        return lambda: None
    names = [name for name in list(logging.root.manager.loggerDict)
             if name.split(".")[0] == "distributed"]
    levels = {name: logging.getLogger(name).level for name in ["distributed", *names]}
    for name in levels:
        logging.getLogger(name).setLevel(logging.CRITICAL)

    def undo() -> None:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)

    return undo


def run_dask(fn: Callable[..., Rows], args: tuple, chunks: Sequence[Chunk], scheduler: str,
             workers: int) -> Ordered:
    """Run ``fn(*args, a, b)`` for each chunk on a Dask cluster, in chunk order.

    ``scheduler`` is ``tcp://host:port``, or ``local``: a new ``LocalCluster`` of
    ``workers`` single-threaded worker processes here.

    Raises:
        FrayInputError: the scheduler cannot be reached, or has no worker.
    """
    return DaskCluster(fn, args, chunks, scheduler, workers)


class DaskCluster(Ordered):
    """Chunks on a Dask cluster, in chunk order (``sim.batch.executors.Ordered``)."""

    def __init__(self, fn: Callable[..., Rows], args: tuple, chunks: Sequence[Chunk],
                 scheduler: str, workers: int) -> None:
        self._fn, self._args = fn, args
        self._where = ("the local Dask cluster" if scheduler == "local"
                       else f"the Dask scheduler at {scheduler}")
        self._client: Client | None = None
        self._cluster: LocalCluster | None = None
        self._unquiet = quiet_dask()
        try:
            self._connect(scheduler, workers)
            known = len(self._connected.scheduler_info().get("workers", {}))
        except BaseException:
            self._shutdown(False)
            raise
        super().__init__(chunks, max(workers, known) * WINDOW_PER_WORKER)

    @property
    def _connected(self) -> Client:
        """The client ``_connect`` made (None only while it connects, or if it failed)."""
        if self._client is None:
            raise SchedulerLost(f"not connected to {self._where}")
        return self._client

    def _connect(self, scheduler: str, workers: int) -> None:
        if scheduler == "local":
            with stops_held():  # a cluster stopped half-started fails in Dask's atexit
                self._cluster = LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True,
                    dashboard_address=":0", silence_logs=logging.CRITICAL,
                    preload=[__name__])
                self._client = Client(self._cluster)
            return
        try:
            _listening(scheduler, CONNECT_TIMEOUT)
            client = self._client = _client_within(scheduler, CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            raise FrayInputError("--scheduler", [("", f"cannot use the Dask scheduler at "
                                                 f"{scheduler}: {exc}")]) from None
        try:
            client.wait_for_workers(1, timeout=WORKERS_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            raise FrayInputError("--scheduler", [("", f"the Dask scheduler at {scheduler} "
                                                 f"has no worker: {exc}")]) from None

    def _submit(self, a: int, b: int) -> Any:
        try:
            return self._connected.submit(self._fn, *self._args, a, b, pure=False)
        except LOST as exc:
            raise self._lost(exc) from None

    def _result(self, future: Any) -> Rows:
        try:
            return future.result()
        except LOST as exc:
            if future.status == "error" and not isinstance(exc, KilledWorker):
                raise  # the chunk's own failure, not the cluster's
            raise self._lost(exc) from None

    def _lost(self, exc: BaseException) -> SchedulerLost:
        if isinstance(exc, KilledWorker):
            return SchedulerLost(f"{self._where} gave up on a chunk whose workers kept dying "
                                 "(KilledWorker)")
        # cancelled by the cluster (fray cancels none it still reads), a lost link
        why = getattr(exc, "reason", None) or str(exc).rsplit(": ", 1)[-1] or type(exc).__name__
        return SchedulerLost(f"lost {self._where} in the middle of the batch ({why})")

    def _halt(self, futures: list[Any]) -> list[bool]:
        """Keep the chunks done or being processed; cancel the rest."""
        try:
            busy = {key for keys in self._connected.processing().values() for key in keys}
        except Exception:  # noqa: BLE001 - no scheduler to ask: keep what is done
            busy = set()
        wanted = [future.done() or future.key in busy for future in futures]
        dropped = [f for f, keep in zip(futures, wanted, strict=True) if not keep]
        if dropped:
            try:
                self._connected.cancel(dropped)
            except Exception:  # noqa: BLE001, S110 - closing the client drops them anyway
                pass
        return wanted

    def _shutdown(self, stopped: bool) -> None:
        del stopped  # nothing to wait for: the client and the cluster drop what runs
        try:
            if self._client is not None:
                self._client.close()
            if self._cluster is not None:
                self._cluster.close()
        finally:
            self._unquiet()


def _listening(scheduler: str, seconds: float) -> None:
    """Raise ``OSError`` at once when nothing listens at the scheduler's address.

    Dask's client retries a refused connection until its timeout; a plain TCP connection
    is refused at once (``--scheduler`` is ``tcp://`` or ``tls://`` ``host:port``).
    """
    host, _, port = scheduler.split("://", 1)[1].rpartition(":")
    with socket.create_connection((host, int(port)), timeout=seconds):
        pass


def _client_within(scheduler: str, seconds: float) -> Client:
    """``Client(scheduler)``, given up after ``seconds`` (and a little more) with ``TimeoutError``.

    Dask's own timeout does not cover a listener that accepts the connection and never
    answers: its client then waits for ever. The client is made in a thread of its own
    (a daemon: one still waiting does not hold the exit) and waited for here.
    """
    made: list[Any] = []

    def connect() -> None:
        try:
            made.append(Client(scheduler, timeout=seconds))
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            made.append(exc)

    thread = threading.Thread(target=connect, name="fray-dask-connect", daemon=True)
    thread.start()
    thread.join(seconds + min(seconds, 5))  # Dask's own error, where it has one, first
    if not made:
        raise TimeoutError(f"it accepted the connection but did not answer within "
                           f"{seconds:g} s (is it a Dask scheduler, of a version this Dask "
                           f"speaks?)")
    if isinstance(made[0], BaseException):
        raise made[0]
    return made[0]
