"""The batch loop's exception handler (cli/batch_run.py): a read finishing after Ctrl-C."""

from __future__ import annotations

import asyncio
import logging

import pytest

from blocksift.cli.batch_run import run_in_order


def _logged_after(caplog: pytest.LogCaptureFixture, error: type[Exception]) -> list[type]:
    """Run the batch loop over one item whose start schedules a callback raising ``error``
    (as CPython's ``_chain_future`` raises InvalidStateError on a cancelled wait); return
    the exception types the loop logged."""
    async def main() -> None:
        loop = asyncio.get_running_loop()

        def fail() -> None:
            raise error("invalid state")

        def start(_item: object) -> None:
            loop.call_soon(fail)

        await run_in_order(iter([1]), start, lambda _done: None, jobs=1)
        await asyncio.sleep(0)

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        asyncio.run(main())
    return [record.exc_info[0] for record in caplog.records if record.exc_info]


def test_a_read_ending_after_ctrl_c_prints_no_traceback(caplog):
    assert _logged_after(caplog, asyncio.InvalidStateError) == []


def test_any_other_error_in_a_callback_is_still_logged(caplog):
    assert _logged_after(caplog, ValueError) == [ValueError]
