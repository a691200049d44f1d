"""What a spectator is told of its room and its broker, in the user's language, against a
real (embedded) broker stopped and started again under the watch screen."""

from __future__ import annotations

from cakeparty.broker.embedded import EmbeddedBroker, free_port
from cakeparty.protocol.lobby import new_room_code
from cakeparty.tui.netroom import WatchPlan
from cakeparty.tui.table.watch import WatchScreen
from cakeparty.tui.widgets import LogView

from .languages import speaking
from .pilot import SIZE, make_app, until


async def test_the_watch_screen_says_its_broker_and_room_in_spanish() -> None:
    """The spectator's words ("connected to …", "connection lost", "reconnected to …")
    were English, and the screen showed none of them: a spectator whose broker went away
    was not told. Now each is a line of the log in the user's language, the loss a
    notice too, and the status says the screen is waiting for the broker."""
    port = free_port()
    url = f"mqtt://127.0.0.1:{port}"
    room = new_room_code()
    with speaking("es"):
        async with EmbeddedBroker(host="127.0.0.1", port=port) as broker:
            app = make_app(language="es")
            app_plan = WatchPlan(room, url)
            async with app.run_test(size=SIZE) as pilot:
                app.push_screen(WatchScreen(app_plan.room, app_plan.broker, name="Ann"))
                await until(pilot, lambda: isinstance(app.screen, WatchScreen), "the screen")
                screen = app.screen
                assert isinstance(screen, WatchScreen)
                log = screen.query_one("#watch-log", LogView)
                notices = lambda: [str(n.message) for n in app._notifications]  # noqa: E731
                await until(pilot, lambda: f"Conectado a {url}." in log.plain, "connected")
                # nothing hosts that room there: said so (in Spanish before as well)
                absent = f"Aún no hay sala {room} en {url}: se sigue buscando."
                await until(pilot, lambda: absent in notices(), "no such room", 30)
                await broker.stop()
                lost = "Se perdió la conexión; reintentando…"
                await until(pilot, lambda: lost in log.plain, "the connection lost", 60)
                assert lost in notices()
                status = screen.query_one("#watch-status")
                await until(
                    pilot,
                    lambda: "Se perdió la conexión con el bróker" in str(status.render()),
                    "the status",
                )
                await broker.start()
                back = f"Conectado de nuevo a {url}."
                await until(pilot, lambda: back in log.plain, "the connection back", 60)
                await until(
                    pilot,
                    lambda: str(status.render()).startswith(f"Buscando la sala {room}"),
                    "the status back",
                )
                await pilot.press("q")
