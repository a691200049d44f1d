"""The log widget keeps its latest lines only: a long session or a chatty room grows no
memory, and what it keeps is the newest, in order."""

from __future__ import annotations

from textual.app import App, ComposeResult

from cakeparty.tui.widgets import LogView


class _OneLog(App[None]):
    def compose(self) -> ComposeResult:
        yield LogView(id="log")


async def test_the_log_keeps_its_latest_lines_and_no_more() -> None:
    app = _OneLog()
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.query_one(LogView)
        total = LogView.MAX_LINES + 700
        for n in range(total):
            log.add(f"line {n}")
        await pilot.pause()
        assert len(log.plain) == LogView.MAX_LINES
        assert log.plain[0] == f"line {total - LogView.MAX_LINES}"
        assert log.plain[-1] == f"line {total - 1}"
        assert len(log.lines) <= LogView.MAX_LINES  # what it draws, too
