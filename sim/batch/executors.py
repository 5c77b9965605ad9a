"""Where chunks of encounters run: in this process, a local process pool, or a Dask cluster.

Every executor is an ``Ordered``: iterated, it yields each chunk's result (rows, a tally,
...) **in chunk order**, whatever order they finish in, and keeps only a bounded window of
chunks in flight, so memory stays flat for any batch size. The local pool is never handed
more chunks than it has workers (the next one goes when one ends): a chunk it holds is
running, so a stop waits for those alone and says truly how many.

Stopping (Ctrl-C; ``sim.cli.main`` turns SIGTERM and SIGHUP into one): workers ignore the
signals and the main process decides. ``drain`` submits nothing more, cancels the chunks
that have not started and waits for the ones running, yielding those that continue the
kept rows without a gap, so the caller writes them too; a second Ctrl-C stops the workers
at once. ``close`` (always) shuts the workers down.

Workers end with the main process, even one killed by SIGKILL: pool workers ask for it
(``prctl(PR_SET_PDEATHSIG)``, Linux); a local Dask cluster's worker processes exit when
the pipe to their parent closes (Dask's own watch) and ignore the signals
(``sim.batch.cluster``, which runs chunks on Dask the same way).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

# the stops asked so far and the stderr lines (in their own module: sim.cli.main needs them
# for every command, and this one imports the process pool)
from sim.batch.stops import SIGNALLED, STOPPING, STOPS_ASKED, say

Chunk = tuple[int, int]
Rows = Any  # what the chunk function returns: rows, a tally, a packed chunk
ChunkFn = Callable[[int, int], Rows]

PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies
WINDOW_PER_WORKER = 4  # chunks in flight per worker: enough to keep every core busy


def _ignore_sigint() -> None:
    # the main process decides: Ctrl-C, SIGTERM and SIGHUP (sent to the whole group by a
    # terminal or a service manager) stop it, and it shuts the workers down
    for signum in STOPPING:
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


def process_pool(workers: int, context: Any = None) -> ProcessPoolExecutor:
    """A process pool whose workers leave the stop to this process and die with it.

    Every pool fray makes comes from here (the batch's ``Pool``, the what-if rollouts):
    its workers ignore Ctrl-C, SIGTERM and SIGHUP and end with the main process, even one
    killed by SIGKILL (``_die_with_parent``), so none outlives it holding its output pipe.
    ``context``: a ``multiprocessing`` context (the what-if workers are forked).
    """
    return ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=_ignore_sigint)


def kill_workers(pool: ProcessPoolExecutor) -> None:
    """End a pool's workers now, whatever they run (a second Ctrl-C, a cancelled ``?``)."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.kill()


class WhatIfPools:
    """The what-if's pools (``sim.ai.whatif.Pools``): forked workers that die with fray."""

    @staticmethod
    def make(workers: int) -> ProcessPoolExecutor:
        """``process_pool`` of forked workers (they inherit the moment being weighed)."""
        return process_pool(workers, multiprocessing.get_context("fork"))

    kill = staticmethod(kill_workers)


# The longest the main thread blocks on a chunk. A signal the kernel hands to another thread
# (the pool's own threads) does not wake a main thread blocked in a lock, and Python runs
# handlers only in the main thread: a second Ctrl-C could wait for the chunk to end.
POLL = 0.25



def at_once() -> str:
    """How to stop at once while a stop waits: the way it was asked for, again."""
    if not SIGNALLED:
        return "Ctrl-C again to stop at once"
    return f"send {signal.Signals(SIGNALLED[0]).name} again or press Ctrl-C to stop at once"


class Ordered:
    """Chunk results in chunk order, a window of chunks in flight (see the module docstring).

    Subclasses say how a chunk is submitted and its result read, which chunks are worth
    waiting for after a stop, and how the workers are stopped.
    """

    def __init__(self, chunks: Sequence[Chunk], window: int, running: int = 0) -> None:
        self._todo = iter(chunks)
        self._window = max(1, window)
        self._running = running  # at most this many submitted and not done (0: any)
        self._pending: deque[tuple[Chunk, Any]] = deque()  # in chunk order
        self._next = chunks[0][0] if chunks else 0  # where the next result handed out starts
        self._finished = self._closed = self._killed = False
        self._signals = len(STOPS_ASKED)  # the stops by signal so far (``__next__``)

    # what an executor provides
    def _submit(self, a: int, b: int) -> Any:
        raise NotImplementedError

    def _result(self, future: Any) -> Rows:
        while not future.done():  # woken often: a Ctrl-C caught by another thread still
            wait([future], timeout=POLL)  # reaches this one within POLL (see POLL)
        return future.result()

    def _halt(self, futures: list[Any]) -> list[bool]:
        """Cancel what has not started; for each future, whether it is worth waiting for."""
        return [not future.cancel() for future in reversed(futures)][::-1]

    def _kill(self) -> None:
        """Stop the workers now (a second Ctrl-C)."""

    def _shutdown(self, stopped: bool) -> None:
        """Release the workers; ``stopped``: chunks may still be running."""

    # what the caller uses
    def __iter__(self) -> Ordered:
        return self

    def __next__(self) -> Rows:
        if len(STOPS_ASKED) > self._signals:
            # a Ctrl-C, SIGTERM or SIGHUP whose KeyboardInterrupt was raised inside a
            # finalizer (Python prints "Exception ignored in ... __del__" and goes on): the
            # run would have gone on as if nothing was sent. The stop is made here instead.
            self._signals = len(STOPS_ASKED)
            raise KeyboardInterrupt
        # the chunk handed out last stays pending until the caller asks for the next one:
        # a stop while the caller was writing it can still give it back (``drain``)
        while self._pending and self._pending[0][0][0] < self._next:
            self._pending.popleft()
        self._fill()
        if not self._pending:
            self._finished = True
            raise StopIteration
        (_, b), future = self._pending[0]
        while self._running and not future.done():  # a chunk ends: the next one starts
            wait(self._busy(), timeout=POLL, return_when=FIRST_COMPLETED)
            self._fill()
        rows = self._result(future)
        self._next = b
        return rows

    def _busy(self) -> list[Any]:
        return [future for _, future in self._pending if not future.done()]

    def _fill(self) -> None:
        """Submit the next chunks: up to the window, and up to ``running`` at work."""
        busy = len(self._busy()) if self._running else 0
        while len(self._pending) < self._window and (not self._running
                                                     or busy < self._running):
            chunk = next(self._todo, None)
            if chunk is None:
                break
            self._pending.append((chunk, self._submit(*chunk)))
            busy += 1

    def drain(self, start: int) -> Iterator[Rows]:
        """After a stop: the results of the chunks from ``start`` on that run on, in order.

        Nothing more is submitted; the chunks that have not started are cancelled; the
        chunks running now are waited for, and yielded while they continue ``start`` (the
        first index the caller has not kept) without a gap. A chunk that fails, or comes
        after one cancelled, ends the drain. A second Ctrl-C while it runs: ``kill``.
        """
        self._todo = iter(())
        pending = [(chunk, future) for chunk, future in self._pending if chunk[1] > start]
        wanted = self._halt([future for _, future in pending])
        running = sum(1 for (_, f), keep in zip(pending, wanted, strict=True)
                      if keep and not f.done())
        if running:
            say(f"stopping: waiting for the {running} chunk{'s' * (running > 1)} already "
                 f"started, to keep them ({at_once()})")
        else:  # every chunk handed out has just finished: said at once all the same
            say(f"stopping: keeping the chunks finished so far ({at_once()})")
        try:
            for ((a, b), future), keep in zip(pending, wanted, strict=True):
                if a != start or not keep:
                    return
                try:
                    rows = self._result(future)
                except Exception:  # noqa: BLE001 - the stop goes on; this chunk is not kept
                    return
                self._next = start = b
                yield rows
        finally:
            self._pending.clear()

    def finish(self) -> None:
        """The caller needs no more chunks (a batch run until sure is precise enough).

        Nothing more is submitted; ``close`` then cancels what has not started and lets the
        running chunks end quietly: not a stop, nothing to say.
        """
        self._todo = iter(())
        self._finished = True

    def kill(self) -> None:
        """Stop the workers now (a second Ctrl-C); ``close`` then waits for nothing."""
        self._killed = True
        self._kill()

    def close(self) -> None:
        """Shut the workers down (waiting for running chunks unless a Ctrl-C says not to)."""
        if self._closed:
            return
        self._closed = True
        stopped = not (self._finished or self._killed) and bool(self._pending)
        try:
            self._shutdown(stopped)
        except KeyboardInterrupt:  # a second Ctrl-C: stop the workers now, cleanly
            self.kill()
            self._shutdown(False)
            raise

    def __enter__(self) -> Ordered:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class Serial(Ordered):
    """Chunks run one after another in this process, when asked for."""

    def __init__(self, fn: ChunkFn, chunks: Sequence[Chunk]) -> None:
        super().__init__(chunks, 1)
        self._fn = fn

    def _submit(self, a: int, b: int) -> Future:
        future: Future = Future()
        future.set_result(self._fn(a, b))
        return future


def run_serial(fn: ChunkFn, chunks: Sequence[Chunk]) -> Ordered:
    """Run the chunks one after another in this process."""
    return Serial(fn, chunks)


class Pool(Ordered):
    """Chunks on a local process pool."""

    def __init__(self, fn: Callable[..., Rows], args: tuple, chunks: Sequence[Chunk],
                 workers: int) -> None:
        # never more chunks in the pool than workers: the pool marks the chunks it queues
        # as running, and a stop could neither cancel them nor say how many really run
        super().__init__(chunks, workers * WINDOW_PER_WORKER, running=workers)
        self._fn, self._args = fn, args
        self._pool = process_pool(workers)

    def _submit(self, a: int, b: int) -> Future:
        return self._pool.submit(self._fn, *self._args, a, b)

    def _kill(self) -> None:
        kill_workers(self._pool)

    def _shutdown(self, stopped: bool) -> None:
        if stopped:  # stopped by an error: say so at once, then wait for the running chunks
            say(f"stopping: waiting for the chunks running now ({at_once()})")
        self._pool.shutdown(wait=True, cancel_futures=True)


def run_local(fn: Callable[..., Rows], args: tuple, chunks: Sequence[Chunk],
              workers: int) -> Ordered:
    """Run ``fn(*args, a, b)`` for each chunk on a process pool of ``workers``."""
    return Pool(fn, args, chunks, workers)
