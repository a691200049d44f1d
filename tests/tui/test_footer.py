"""The footer builds its keys again only when the keys it shows change."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets._footer import FooterKey

from cakeparty.core import i18n
from cakeparty.core.i18n import N_
from cakeparty.tui.widgets.footer import KeyFooter

from .pilot import SIZE


class KeysScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "help", N_("Help")),
        Binding("q", "quit_it", N_("Quit")),
    ]
    can_quit = True

    def compose(self) -> ComposeResult:
        yield KeyFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.can_quit if action == "quit_it" else True

    def action_help(self) -> None:
        pass

    def action_quit_it(self) -> None:
        pass


def keys(screen: Screen[Any]) -> list[FooterKey]:
    return list(screen.query_one(KeyFooter).query(FooterKey))


async def test_the_footer_is_built_again_only_when_its_keys_change() -> None:
    app: App[None] = App()
    async with app.run_test(size=SIZE) as pilot:
        screen = KeysScreen()
        await app.push_screen(screen)
        await pilot.pause()
        drawn = keys(screen)
        assert [key.description for key in drawn] == ["Help", "Quit"]
        # asked again with the same keys (a game asks after every move): the same widgets
        for _ in range(3):
            screen.refresh_bindings()
            await pilot.pause()
        assert keys(screen) == drawn
        # a key that goes away is gone
        screen.can_quit = False
        screen.refresh_bindings()
        await pilot.pause()
        assert [key.description for key in keys(screen)] == ["Help"]
        screen.can_quit = True
        screen.refresh_bindings()
        await pilot.pause()
        assert [key.description for key in keys(screen)] == ["Help", "Quit"]
        # the same keys in another language are drawn again, in it
        try:
            assert i18n.use_language("es") == "es"
            screen.refresh_bindings()
            await pilot.pause()
            assert [key.description for key in keys(screen)] == ["Ayuda", "Salir"]
        finally:
            i18n.use_language("en")
