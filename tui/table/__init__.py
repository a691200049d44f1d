"""What every game's table needs, whatever the game: the session a screen drives (people
and bots at this computer, or a seat in a networked room), the story of public events,
the end-of-game box and the face-up replay, and the registration a game's screen package
describes itself with. Nothing here names a game."""
