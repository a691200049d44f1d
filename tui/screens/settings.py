"""The settings form (display name, language, default bot level, bot delay, a strong
bot's thinking time, colours), and
the first-run question of the display name.

The language changes live: as soon as another one is shown, the form and the menu below it
redraw in it; esc puts back the one there was."""

from __future__ import annotations

from pathlib import PurePath
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Label, Static

from cakeparty.core.i18n import LANGUAGE_NAMES, LANGUAGES, _, language_from_environment
from cakeparty.protocol.looks import readable
from cakeparty.tui.messages import OptionCycled
from cakeparty.tui.screens.once import ClosesOnce
from cakeparty.tui.settings import BOT_DELAYS, BOT_LEVELS, NAME_LENGTH, THINK_TIMES, Settings
from cakeparty.tui.widgets import Cycler
from cakeparty.tui.widgets.footer import KeyFooter
from cakeparty.tui.widgets.line import LineInput
from cakeparty.tui.widgets.typing import after_typing


def language_choices() -> list[tuple[str, str]]:
    """The languages offered, each in its own words; first, the environment's."""
    found = LANGUAGE_NAMES[language_from_environment()]
    return [(_("automatic ({language})").format(language=found), "")] + [
        (LANGUAGE_NAMES[code], code) for code in LANGUAGES
    ]


class SettingsScreen(ClosesOnce, ModalScreen[Settings | None]):
    """Edit the settings; enter saves (returns them), esc leaves them as they were."""

    CSS_PATH: ClassVar[list[str | PurePath]] = ["dialogs.tcss", "settings.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "save", _("Save"), id="settings.save", priority=True),
        Binding("escape", "cancel", _("Back"), id="settings.cancel"),
        Binding("up", "app.focus_previous", show=False, id="settings.up"),
        Binding("down", "app.focus_next", show=False, id="settings.down"),
    ]

    def __init__(self, settings: Settings, no_color_env: bool = False) -> None:
        super().__init__(classes="dialog")
        self.settings = settings
        self.original = settings  # what esc goes back to (the language too)
        self.no_color_env = no_color_env

    def compose(self) -> ComposeResult:
        s = self.settings
        delays = [(_("none") if d == 0 else _("{s} s").format(s=d), d) for d in BOT_DELAYS]
        if s.bot_delay not in BOT_DELAYS:
            delays.append((_("{s} s").format(s=s.bot_delay), s.bot_delay))
        thinks = [(_("{s} s").format(s=t), t) for t in THINK_TIMES]
        if s.bot_think not in THINK_TIMES:
            thinks.append((_("{s} s").format(s=s.bot_think), s.bot_think))
        with Vertical(id="settings-box", classes="dialog-box") as box:
            box.border_title = Content(_("Settings"))
            yield Label(_("Display name"), id="settings-name-label", markup=False)
            yield LineInput(s.name, max_length=NAME_LENGTH, id="settings-name")
            yield Cycler(
                "bot_level", _("Bots"), [(_(level), level) for level in BOT_LEVELS], s.bot_level
            )
            yield Cycler("bot_delay", _("Bot delay"), delays, s.bot_delay)
            yield Cycler("bot_think", _("Bot thinking time"), thinks, s.bot_think)
            on_off = [(_("on"), True), (_("off"), False)]
            yield Cycler("colours", _("Colours"), on_off, s.colours)
            yield Cycler("bell", _("Bell on your turn"), on_off, s.bell)
            yield Cycler(
                "language", _("Language"), language_choices(), s.language, id="settings-language"
            )
            if self.no_color_env:
                yield Static(
                    _("NO_COLOR is set: colours stay off."), classes="settings-note", markup=False
                )
            yield Static(
                _("↑/↓ move · ←/→ change · enter save · esc back"),
                classes="settings-note",
                markup=False,
            )
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.off_stack:  # closed before it was drawn: its widgets are gone
            return
        self.query_one(Input).focus()

    def _value(self, name: str) -> object:
        return next(c.value for c in self.query(Cycler) if c.name == name)

    @property
    def edited(self) -> Settings:
        names = ("bot_level", "bot_delay", "bot_think", "colours", "bell", "language")
        level, delay, think, colours, bell, language = (self._value(n) for n in names)
        assert isinstance(level, str) and isinstance(delay, float | int)
        assert isinstance(think, float | int)
        return Settings(
            name=self.query_one(Input).value,
            bot_level=level,
            bot_delay=float(delay),
            bot_think=float(think),
            colours=bool(colours),
            bell=bool(bell),
            language=str(language),
        )

    async def on_option_cycled(self, message: OptionCycled) -> None:
        if message.name != "language":
            return
        self.settings = self.edited  # the form redraws with what is typed and chosen
        self._show_language(self.settings.language)
        await self.recompose()
        self.query_one("#settings-language", Cycler).focus()

    def _show_language(self, setting: str) -> None:
        change = getattr(self.app, "change_language", None)
        if change is not None:
            change(setting)

    def action_save(self) -> None:
        def save() -> None:
            if refused_name(self, self.query_one(Input)):
                return
            self.dismiss(self.edited)

        after_typing(self, save)

    def action_cancel(self) -> None:
        if self.settings.language != self.original.language:
            self._show_language(self.original.language)
        self.dismiss(None)


class NameScreen(ClosesOnce, ModalScreen[str]):
    """The first run's question: the name other players will see. Enter keeps what is
    typed (or the suggestion, when left empty); esc keeps the suggestion."""

    CSS_PATH: ClassVar[list[str | PurePath]] = ["dialogs.tcss", "settings.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "save", _("OK"), id="name.save", priority=True),
        Binding("escape", "keep", _("Keep the suggestion"), id="name.keep"),
    ]

    def __init__(self, suggestion: str) -> None:
        super().__init__(classes="dialog")
        self.suggestion = suggestion

    def compose(self) -> ComposeResult:
        with Vertical(id="name-box", classes="dialog-box") as box:
            box.border_title = Content(_("Welcome to Cake Party"))
            yield Static(
                _("Your name, as other players will see it in rooms and chat:"),
                id="name-label",
                markup=False,
            )
            yield LineInput(placeholder=self.suggestion, max_length=NAME_LENGTH, id="name-input")
            yield Static(
                _("enter OK · esc keep {name} · change it later in Settings (o)").format(
                    name=self.suggestion
                ),
                classes="settings-note",
                markup=False,
            )
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.off_stack:  # closed before it was drawn: its widgets are gone
            return
        self.query_one(Input).focus()

    def action_save(self) -> None:
        def save() -> None:
            typed = self.query_one(Input)
            if not refused_name(self, typed):
                self.dismiss(typed.value.strip() or self.suggestion)

        after_typing(self, save)

    def action_keep(self) -> None:
        self.dismiss(self.suggestion)


def refused_name(screen: Screen[Any], field: Input) -> bool:
    """Whether the name typed in ``field`` cannot be a display name (a character that is
    not printable, or nothing shown: only blanks and characters drawn as nothing), said on
    ``screen`` with the field focused to change it. Left empty it is no name typed."""
    typed = field.value.strip()
    if not typed or readable(typed):
        return False
    screen.notify(_("Other players could not read that name: type another."), severity="error")
    field.focus()
    return True
