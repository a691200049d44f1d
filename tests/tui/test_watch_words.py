"""What a spectator is told of its room and its broker, in the user's language, against a
real (embedded) broker stopped and started again under the watch screen."""

from __future__ import annotations

from cakeparty.broker.embedded import EmbeddedBroker, free_port
from cakeparty.protocol import topics
from cakeparty.protocol.identity import Identity, fingerprint
from cakeparty.protocol.lobby import new_room_code, room_code
from cakeparty.protocol.topics import presence_id
from cakeparty.protocol.transport import BrokerAddress, Transport
from cakeparty.tui.netroom import WatchPlan
from cakeparty.tui.table.watch import WatchScreen
from cakeparty.tui.widgets import LogView

from ..network.test_watch_attacks import playing_advert
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


async def test_the_watch_screen_names_a_host_whose_table_cannot_be_played() -> None:
    """A host's table with an option the game does not have: the screen said the game
    had not started, for ever. It says, in the user's language, that the host (named by
    name and key) set a table that cannot be played, and that q leaves."""
    room = new_room_code()
    host, guest = Identity.generate("Hank"), Identity.generate("Ann")
    with speaking("es"):
        async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
            address = BrokerAddress.parse(broker.url)
            async with Transport(address, client_id="eve-table") as eve:
                await eve.publish(
                    topics.lobby(room, presence_id(host.player_id)),
                    playing_advert(room, host, guest, options=(("bogus", True),)),
                    retain=True,
                )
                app = make_app(language="es")
                async with app.run_test(size=SIZE) as pilot:
                    code = room_code(room, host.player_id)
                    app.push_screen(WatchScreen(code, broker.url, name="Ann"))
                    await until(pilot, lambda: isinstance(app.screen, WatchScreen), "it")
                    screen = app.screen
                    assert isinstance(screen, WatchScreen)
                    said = (
                        f"Hank ({fingerprint(host.player_id)}) preparó una mesa en la que no "
                        "se puede jugar: unknown Cake Duel option(s): bogus."
                    )
                    await until(pilot, lambda: screen.failed == said, "the table refused", 30)
                    assert said in screen.query_one("#watch-log", LogView).plain
                    status = str(screen.query_one("#watch-status").render())
                    assert status == said + " q para salir."
                    await pilot.press("q")
